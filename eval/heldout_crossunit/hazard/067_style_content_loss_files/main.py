# Source: pytorch/tutorials advanced_source/neural_style_tutorial.py (ContentLoss modules are
# added after conv layers with add_module; the tutorial swaps in nn.ReLU(inplace=False) because the
# in-place version does not play nicely with the inserted loss modules).
# Unit kind: file -- losses.py's mse_loss saves the conv output, cnn.py's in-place ReLU rewrites it,
# build.py assembles the Sequential.
import torch

from build import get_content_model
from cnn import pretrained_like_features

torch.manual_seed(0)
model, content_losses = get_content_model(pretrained_like_features(), torch.rand(1, 3, 6, 6))
input_img = torch.rand(1, 3, 6, 6).requires_grad_(True)
model(input_img)
sum(cl.loss for cl in content_losses).backward()
print("done")
