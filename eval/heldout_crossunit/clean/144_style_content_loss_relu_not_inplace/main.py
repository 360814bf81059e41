# Source: pytorch/tutorials advanced_source/neural_style_tutorial.py (the tutorial replaces the
# in-place ReLU with nn.ReLU(inplace=False) when rebuilding the model).
# Clean look-alike of hazard/067.
# Unit kind: file.
import torch

from build import get_content_model
from cnn import pretrained_like_features

torch.manual_seed(0)
model, content_losses = get_content_model(pretrained_like_features(), torch.rand(1, 3, 6, 6))
input_img = torch.rand(1, 3, 6, 6).requires_grad_(True)
model(input_img)
sum(cl.loss for cl in content_losses).backward()
print("done")
