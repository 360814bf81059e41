# source: https://github.com/pytorch/pytorch/issues/46820 (optical flow split with .chunk, each half rescaled with *=)
import torch
import torch.nn as nn
import torch.nn.functional as F


class FlowHead(nn.Module):
    def __init__(self, ch=4):
        super().__init__()
        self.conv = nn.Conv2d(ch, 2, 3, padding=1)

    def forward(self, x):
        return self.conv(x)


def resize_flow(flow, size):
    h, w = flow.shape[-2:]
    new_h, new_w = size
    u_scale = new_w / w
    v_scale = new_h / h
    flow = F.interpolate(flow, size=size, mode="bilinear", align_corners=False)
    u, v = flow.chunk(2, dim=1)
    u *= u_scale  # culprit
    v *= v_scale
    return torch.cat([u, v], dim=1)


torch.manual_seed(0)
head = FlowHead()
feat = torch.randn(1, 4, 4, 4)
flow = head(feat)
flow_up = resize_flow(flow, (8, 8))
target = torch.zeros_like(flow_up)
loss = (flow_up - target).abs().mean()
loss.backward()
print(loss.item())
