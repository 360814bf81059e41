# Source: https://github.com/AggMan96/RK-Net/issues/9 (att[:, :, :, 0] = 0 ... modifies the att tensor in place, output 0 of the activation; add att = att.clone() under `if self.polish:`)
# Unit kind: cross-file
import torch

from model import AttentionHead

torch.manual_seed(0)
head = AttentionHead(4, polish=True)
out = head(torch.randn(2, 4, 6, 6))
out.mean().backward()
print("ok", tuple(out.shape))
