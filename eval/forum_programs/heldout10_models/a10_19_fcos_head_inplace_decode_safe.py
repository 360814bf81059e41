# source: FCOS head (mmdet / torchvision FCOSHead) with learnable per-level Scale, in plain torch
# conv outputs edited in place (logit clamp_, reg.mul_(scale)), points built in place without grad, boxes written into a fresh tensor
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class PlainSGD:
    """Minimal SGD(+momentum) so the script does not pay torch.optim's start-up cost."""

    def __init__(self, params, lr=0.01, momentum=0.0):
        self.params = list(params)
        self.lr, self.momentum = lr, momentum
        self.bufs = [None] * len(self.params)

    def zero_grad(self):
        for p in self.params:
            p.grad = None

    @torch.no_grad()
    def step(self):
        for i, p in enumerate(self.params):
            if p.grad is None:
                continue
            d = p.grad
            if self.momentum:
                if self.bufs[i] is None:
                    self.bufs[i] = d.clone()
                else:
                    self.bufs[i].mul_(self.momentum).add_(d)
                d = self.bufs[i]
            p.add_(d, alpha=-self.lr)


class Scale(nn.Module):
    def __init__(self, init=1.0):
        super().__init__()
        self.scale = nn.Parameter(torch.tensor(init))


def conv_gn_relu(c):
    return nn.Sequential(nn.Conv2d(c, c, 3, padding=1, bias=False), nn.GroupNorm(4, c), nn.ReLU(inplace=True))


class FCOSHead(nn.Module):
    def __init__(self, ch=16, num_classes=4, strides=(8, 16), logit_clip=12.0):
        super().__init__()
        self.cls_tower = nn.Sequential(conv_gn_relu(ch), conv_gn_relu(ch))
        self.reg_tower = nn.Sequential(conv_gn_relu(ch), conv_gn_relu(ch))
        self.cls_logits = nn.Conv2d(ch, num_classes, 3, padding=1)
        self.bbox_pred = nn.Conv2d(ch, 4, 3, padding=1)
        self.centerness = nn.Conv2d(ch, 1, 3, padding=1)
        self.scales = nn.ModuleList(Scale() for _ in strides)
        self.strides = strides
        self.logit_clip = logit_clip

    @staticmethod
    @torch.no_grad()
    def make_points(h, w, stride):
        xs = torch.arange(w, dtype=torch.float32).mul_(stride)
        ys = torch.arange(h, dtype=torch.float32).mul_(stride)
        yy, xx = torch.meshgrid(ys, xs, indexing="ij")
        pts = torch.stack([xx.reshape(-1), yy.reshape(-1)], -1)
        pts.add_(stride // 2)
        return pts

    def forward(self, feats):
        all_logits, all_boxes, all_ctr = [], [], []
        for lvl, f in enumerate(feats):
            cls_feat = self.cls_tower(f)
            reg_feat = self.reg_tower(f)
            logits = self.cls_logits(cls_feat)
            logits.clamp_(-self.logit_clip, self.logit_clip)
            reg = self.bbox_pred(reg_feat)
            reg.mul_(self.scales[lvl].scale)
            dist = F.relu(reg) * self.strides[lvl]
            ctr = self.centerness(reg_feat)
            B, _, H, W = reg.shape
            pts = self.make_points(H, W, self.strides[lvl])
            dist = dist.flatten(2).transpose(1, 2)  # (B, HW, 4)
            boxes = dist.new_empty(dist.shape)
            boxes[..., 0] = pts[:, 0] - dist[..., 0]
            boxes[..., 1] = pts[:, 1] - dist[..., 1]
            boxes[..., 2] = pts[:, 0] + dist[..., 2]
            boxes[..., 3] = pts[:, 1] + dist[..., 3]
            all_logits.append(logits.flatten(2).transpose(1, 2))
            all_boxes.append(boxes)
            all_ctr.append(ctr.flatten(1))
        return torch.cat(all_logits, 1), torch.cat(all_boxes, 1), torch.cat(all_ctr, 1)


class Detector(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Sequential(nn.Conv2d(3, 16, 3, 8, 1), nn.ReLU(inplace=True))
        self.c2 = nn.Sequential(nn.Conv2d(16, 16, 3, 2, 1), nn.ReLU(inplace=True))
        self.head = FCOSHead()

    def forward(self, img):
        p3 = self.c1(img)
        p4 = self.c2(p3)
        return self.head([p3, p4])


if __name__ == "__main__":
    model = Detector()
    opt = PlainSGD(model.parameters(), lr=0.01, momentum=0.9)
    img = torch.randn(2, 3, 32, 32)
    logits, boxes, ctr = model(img)
    cls_t = (torch.rand_like(logits) < 0.05).float()
    pos = cls_t.amax(-1) > 0
    box_t = torch.rand_like(boxes) * 32
    loss = F.binary_cross_entropy_with_logits(logits, cls_t, reduction="sum") / pos.sum().clamp(min=1)
    loss = loss + F.l1_loss(boxes[pos], box_t[pos]) * 0.01 + F.binary_cross_entropy_with_logits(ctr[pos], torch.ones_like(ctr[pos]))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("loss", loss.item())
