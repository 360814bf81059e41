# Source: https://github.com/facebookresearch/detectron2/pull/2716 (facebookresearch/detectron2 PR #2716 "Replace in-place clamp_ with out-place one", fixing clamp_ "where it is actually necessary - in Boxes.clip()"); see also https://github.com/ultralytics/ultralytics/pull/8645
# Unit kind: cross-file
# heads.py's FCOS head returns ReLU'd distances in training mode (ReLU saves its result);
# the structures package's Boxes.clip clamps the wrapped tensor in place before the loss.
import torch

from heads import FCOSHead
from structures import Boxes

torch.manual_seed(0)

head = FCOSHead(3)
head.train()
pred = head(torch.randn(1, 3, 4, 4), stride=8)
boxes = Boxes(pred.permute(0, 2, 3, 1).reshape(-1, 4))
boxes.clip(max_size=2.0)
loss = boxes.area().mean()
loss.backward()
print("done")
