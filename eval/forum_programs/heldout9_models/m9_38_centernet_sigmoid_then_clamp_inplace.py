# source: CenterNet (xingyizhou/CenterNet src/lib/models/utils.py _sigmoid) rewritten as x.sigmoid_() followed by an in-place clamp_
# CenterNet-style heads (heatmap / wh / offset) on a tiny backbone; the heatmap helper clamps the sigmoid output in place.
import torch
import torch.nn as nn
import torch.nn.functional as F


def _sigmoid(x):
    y = x.sigmoid_()
    y.clamp_(min=1e-4, max=1 - 1e-4)  # culprit
    return y


def focal_loss(pred, gt):
    pos, neg = gt.eq(1).float(), gt.lt(1).float()
    neg_weights = torch.pow(1 - gt, 4)
    pos_loss = (torch.log(pred) * torch.pow(1 - pred, 2) * pos).sum()
    neg_loss = (torch.log(1 - pred) * torch.pow(pred, 2) * neg_weights * neg).sum()
    return -(pos_loss + neg_loss) / pos.sum().clamp(min=1)


class CenterNetHead(nn.Module):
    def __init__(self, in_ch=16, head_conv=16, heads=None):
        super().__init__()
        self.heads = heads or {"hm": 2, "wh": 2, "reg": 2}
        for name, out in self.heads.items():
            layer = nn.Sequential(nn.Conv2d(in_ch, head_conv, 3, padding=1), nn.ReLU(inplace=True), nn.Conv2d(head_conv, out, 1))
            if name == "hm":
                layer[-1].bias.data.fill_(-2.19)
            self.__setattr__(name, layer)

    def forward(self, x):
        return {name: self.__getattr__(name)(x) for name in self.heads}


torch.manual_seed(0)
backbone = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.BatchNorm2d(16), nn.ReLU(inplace=True))
head = CenterNetHead()
opt = torch.optim.Adam([*backbone.parameters(), *head.parameters()], lr=1.25e-4)
img = torch.randn(2, 3, 32, 32)
hm_gt = torch.rand(2, 2, 16, 16) * 0.9
hm_gt[0, 1, 4, 5] = 1.0
hm_gt[1, 0, 9, 2] = 1.0
out = head(backbone(img))
hm = _sigmoid(out["hm"])
loss = focal_loss(hm, hm_gt) + 0.1 * out["wh"].abs().mean() + out["reg"].abs().mean()
opt.zero_grad()
loss.backward()
opt.step()
print(loss.item())
