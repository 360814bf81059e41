# source: DINO (Caron et al. 2021) DINOLoss: teacher outputs centred and sharpened, center EMA updated inside forward
# DINO-style self-distillation step; the loss module updates its center buffer in place before the loss is backpropagated.
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class DINOLoss(nn.Module):
    def __init__(self, out_dim, student_temp=0.1, teacher_temp=0.04, center_momentum=0.9):
        super().__init__()
        self.st, self.tt, self.m = student_temp, teacher_temp, center_momentum
        self.register_buffer("center", torch.zeros(1, out_dim))

    def forward(self, student_out, teacher_out):
        s = F.log_softmax(student_out / self.st, dim=-1)
        t = F.softmax((teacher_out - self.center) / self.tt, dim=-1).detach()
        loss = -(t * s).sum(-1).mean()
        self.update_center(teacher_out)
        return loss

    @torch.no_grad()
    def update_center(self, teacher_out):
        self.center.mul_(self.m).add_(teacher_out.mean(0, keepdim=True), alpha=1 - self.m)


student = nn.Sequential(nn.Linear(20, 64), nn.GELU(), nn.Linear(64, 32))
teacher = copy.deepcopy(student)
for p in teacher.parameters():
    p.requires_grad_(False)
criterion = DINOLoss(32)
opt = torch.optim.AdamW(student.parameters(), lr=5e-4)

for step in range(4):
    x = torch.randn(16, 20)
    v1, v2 = x + 0.1 * torch.randn_like(x), x + 0.1 * torch.randn_like(x)
    with torch.no_grad():
        t_out = teacher(v2)
    loss = criterion(student(v1), t_out)
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        for ps, pt in zip(student.parameters(), teacher.parameters()):
            pt.mul_(0.996).add_(ps.detach(), alpha=0.004)
    print(step, loss.item(), criterion.center.norm().item())
