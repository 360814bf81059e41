# Source: https://github.com/AggMan96/RK-Net/issues/9 (att[:, :, :, 0] = 0 on the attention map; here the helper only writes in place when att does not require grad, and multiplies by a mask otherwise)
# Unit kind: cross-file
# Look-alike of hazard/010
import torch

from model import AttentionHead

torch.manual_seed(0)
head = AttentionHead(4, polish=True)
out = head(torch.randn(2, 4, 6, 6))
out.mean().backward()
with torch.no_grad():
    shown = head(torch.randn(1, 4, 6, 6))
print("ok", tuple(out.shape), tuple(shown.shape))
