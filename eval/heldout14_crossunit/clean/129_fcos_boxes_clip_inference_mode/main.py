# Source: https://github.com/facebookresearch/detectron2/pull/2716 (facebookresearch/detectron2 PR #2716: Boxes.clip()'s clamp_)
# Unit kind: cross-file
# Look-alike of hazard/033: training backpropagates the FCOS distances directly; the
# in-place Boxes.clip from the structures package is only called by predictor.py,
# under torch.inference_mode().
import torch

from heads import FCOSHead
from predictor import Predictor

torch.manual_seed(0)

head = FCOSHead(3)
head.train()
pred = head(torch.randn(1, 3, 4, 4), stride=8)
loss = pred.mean()
loss.backward()
boxes = Predictor(head, image_size=32.0)(torch.randn(1, 3, 4, 4), stride=8)
print(boxes.area().shape)
