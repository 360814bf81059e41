# Source: PingoLH/FCHarDNet#61 (cconv.weight[:,:,:,:] = W[:,:,:,:] while merging BN into conv:
# "a view of a leaf Variable that requires grad is being used in an in-place operation").
# Unit kind: class -- ConvBN.fuse() writes the weight of a child nn.Conv2d it owns.
import torch
import torch.nn as nn

torch.manual_seed(0)


class ConvBN(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(cout)
        self.fused = nn.Conv2d(cin, cout, 3, padding=1, bias=True)

    def fuse(self):
        std = (self.bn.running_var + self.bn.eps).sqrt()
        W = self.conv.weight * (self.bn.weight / std)[:, None, None, None]
        b = self.bn.bias - self.bn.running_mean * self.bn.weight / std
        weight = self.fused.weight
        weight[:, :, :, :] = W[:, :, :, :]  # culprit
        self.fused.bias.data = b.detach()
        return self.fused


m = ConvBN(3, 4).eval()
m.fuse()
print("done")
