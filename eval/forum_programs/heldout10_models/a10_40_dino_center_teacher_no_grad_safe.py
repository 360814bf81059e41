# source: DINO self-distillation (facebookresearch/dino DINOLoss + EMA teacher) in plain torch
# teacher runs under no_grad; its .detach()ed output is centred/sharpened in place; center buffer and teacher weights EMA-updated in place
import copy
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


class DINOHead(nn.Module):
    def __init__(self, in_dim, out_dim, hidden=32, bottleneck=16):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(in_dim, hidden), nn.GELU(), nn.Linear(hidden, bottleneck))
        self.last_layer = nn.Linear(bottleneck, out_dim, bias=False)

    def forward(self, x):
        x = F.normalize(self.mlp(x), dim=-1, p=2)
        return self.last_layer(x)


class Backbone(nn.Module):
    def __init__(self, dim=24):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(3, 16, 3, 2, 1), nn.BatchNorm2d(16), nn.ReLU(inplace=True),
            nn.Conv2d(16, dim, 3, 2, 1), nn.BatchNorm2d(dim), nn.ReLU(inplace=True),
        )

    def forward(self, x):
        return self.net(x).mean((2, 3))


class DINOLoss(nn.Module):
    def __init__(self, out_dim, teacher_temp=0.04, student_temp=0.1, center_momentum=0.9):
        super().__init__()
        self.teacher_temp, self.student_temp, self.m = teacher_temp, student_temp, center_momentum
        self.register_buffer("center", torch.zeros(1, out_dim))

    def forward(self, student_out, teacher_out):
        batch_center = teacher_out.mean(dim=0, keepdim=True)
        t = teacher_out.detach()
        t.sub_(self.center).div_(self.teacher_temp)
        t_probs = F.softmax(t, dim=-1).chunk(2)
        s_logp = F.log_softmax(student_out / self.student_temp, dim=-1).chunk(2)
        loss, n = 0.0, 0
        for iq, q in enumerate(t_probs):
            for iv, lp in enumerate(s_logp):
                if iv == iq:
                    continue
                loss = loss + torch.sum(-q * lp, dim=-1).mean()
                n += 1
        self.update_center(batch_center)
        return loss / n

    @torch.no_grad()
    def update_center(self, batch_center):
        self.center.mul_(self.m).add_(batch_center, alpha=1 - self.m)


class MultiCropWrapper(nn.Module):
    def __init__(self, backbone, head):
        super().__init__()
        self.backbone, self.head = backbone, head

    def forward(self, crops):
        return self.head(self.backbone(torch.cat(crops)))


def augment(x):
    flip = torch.rand(x.size(0)) < 0.5
    x = torch.where(flip[:, None, None, None], x.flip(-1), x)
    return x + 0.05 * torch.randn_like(x)


if __name__ == "__main__":
    student = MultiCropWrapper(Backbone(), DINOHead(24, 20))
    teacher = copy.deepcopy(student)
    for p in teacher.parameters():
        p.requires_grad_(False)
    criterion = DINOLoss(20)
    opt = PlainSGD(student.parameters(), lr=0.0005)
    for it in range(2):
        imgs = torch.randn(4, 3, 16, 16)
        crops = [augment(imgs), augment(imgs)]
        with torch.no_grad():
            teacher_out = teacher(crops)
        loss = criterion(student(crops), teacher_out)
        opt.zero_grad()
        loss.backward()
        opt.step()
        with torch.no_grad():
            for ps, pt in zip(student.parameters(), teacher.parameters()):
                pt.mul_(0.996).add_(ps.detach(), alpha=0.004)
        print(it, loss.item())
