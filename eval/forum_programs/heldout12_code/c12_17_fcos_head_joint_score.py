# source: FCOS / mmdet FCOSHead (shared towers, per-level Scale, centerness) with a joint cls*centerness score loss
# Anchor-free detection head over two FPN levels trained with a focal-style loss on classification x centerness scores.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Scale(nn.Module):
    def __init__(self, init_value=1.0):
        super().__init__()
        self.scale = nn.Parameter(torch.tensor(init_value))

    def forward(self, x):
        return x * self.scale


def conv_tower(ch, num_convs):
    layers = []
    for _ in range(num_convs):
        layers += [nn.Conv2d(ch, ch, 3, padding=1, bias=False), nn.GroupNorm(4, ch), nn.ReLU(inplace=True)]
    return nn.Sequential(*layers)


class FCOSHead(nn.Module):
    def __init__(self, ch=16, num_classes=3, num_convs=2, num_levels=2):
        super().__init__()
        self.cls_tower = conv_tower(ch, num_convs)
        self.bbox_tower = conv_tower(ch, num_convs)
        self.cls_logits = nn.Conv2d(ch, num_classes, 3, padding=1)
        self.bbox_pred = nn.Conv2d(ch, 4, 3, padding=1)
        self.centerness = nn.Conv2d(ch, 1, 3, padding=1)
        self.scales = nn.ModuleList([Scale(1.0) for _ in range(num_levels)])
        nn.init.constant_(self.cls_logits.bias, -2.0)

    def forward_single(self, x, scale):
        cls_feat = self.cls_tower(x)
        reg_feat = self.bbox_tower(x)
        cls_score = self.cls_logits(cls_feat)
        bbox = F.relu(scale(self.bbox_pred(reg_feat)))
        return cls_score, bbox, self.centerness(reg_feat)

    def forward(self, feats):
        return [self.forward_single(f, s) for f, s in zip(feats, self.scales)]


def joint_score(cls_score, centerness):
    prob = cls_score.sigmoid()
    prob.mul_(centerness.sigmoid())  # culprit
    return prob


def head_loss(outputs, cls_targets, box_targets, gamma=2.0):
    total = 0.0
    for (cls_score, bbox, ctr), t_cls, t_box in zip(outputs, cls_targets, box_targets):
        p = joint_score(cls_score, ctr).clamp(1e-6, 1 - 1e-6)
        ce = F.binary_cross_entropy(p, t_cls, reduction="none")
        p_t = p * t_cls + (1 - p) * (1 - t_cls)
        total = total + (ce * (1 - p_t).pow(gamma)).sum() / max(1.0, t_cls.sum().item())
        pos = t_cls.amax(1, keepdim=True).expand_as(bbox) > 0
        total = total + F.smooth_l1_loss(bbox[pos], t_box[pos]) if pos.any() else total
    return total


def main():
    torch.manual_seed(0)
    head = FCOSHead()
    opt = torch.optim.SGD(head.parameters(), lr=0.01, momentum=0.9)
    feats = [torch.randn(2, 16, 8, 8), torch.randn(2, 16, 4, 4)]
    cls_t = [(torch.rand(2, 3, 8, 8) > 0.9).float(), (torch.rand(2, 3, 4, 4) > 0.8).float()]
    box_t = [torch.rand(2, 4, 8, 8) * 4, torch.rand(2, 4, 4, 4) * 8]
    loss = head_loss(head(feats), cls_t, box_t)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
