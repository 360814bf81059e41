# Source: https://github.com/ultralytics/ultralytics/pull/8645 (ultralytics/ultralytics PR #8645: with smart_inference_mode disabled, gradient computation fails because of in-place ops; clip_boxes' in-place .clamp_ "causes bugs"); see also https://github.com/facebookresearch/detectron2/pull/2716 (Boxes.clip clamp_)
# Unit kind: cross-function
# Decoding returns sigmoid-normalised boxes (sigmoid saves its result); the
# post-processing helper clips them in place.
import torch
import torch.nn as nn

torch.manual_seed(0)


def decode(head, feats):
    return torch.sigmoid(head(feats))


def clip_boxes(boxes, limit=1.0):
    boxes[..., :4].clamp_(0.0, limit)  # culprit
    return boxes


def box_loss(boxes, targets):
    return (boxes - targets).abs().mean()


head = nn.Linear(6, 4)
boxes = clip_boxes(decode(head, torch.randn(5, 6)))
box_loss(boxes, torch.rand(5, 4)).backward()
print("done")
