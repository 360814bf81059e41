# Source: https://github.com/ultralytics/ultralytics/pull/8645 (ultralytics/ultralytics PR #8645: the in-place clip_boxes is fine under smart_inference_mode and only breaks once gradients are enabled)
# Unit kind: cross-function
# Look-alike of hazard/012: the in-place clipping helper is only reached from a
# postprocess function decorated with @torch.no_grad(); training uses the raw boxes.
import torch
import torch.nn as nn

torch.manual_seed(0)


def decode(head, feats):
    return torch.sigmoid(head(feats))


def clip_boxes(boxes, limit=1.0):
    boxes[..., :4].clamp_(0.0, limit)
    return boxes


@torch.no_grad()
def postprocess(head, feats):
    return clip_boxes(decode(head, feats))


head = nn.Linear(6, 4)
feats, targets = torch.randn(5, 6), torch.rand(5, 4)
(decode(head, feats) - targets).abs().mean().backward()
print(postprocess(head, feats).shape)
