# source: DINO (facebookresearch/dino main_dino.py DINOLoss + EMA teacher) with multi-crop views
# DINO self-distillation step: loss updates its center buffer before backward, EMA teacher updated after the step.
import torch
import torch.nn as nn
import torch.nn.functional as F


class DINOHead(nn.Module):
    def __init__(self, in_dim, out_dim, hidden=32, bottleneck=16):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(in_dim, hidden), nn.GELU(), nn.Linear(hidden, bottleneck))
        self.last_layer = nn.Linear(bottleneck, out_dim, bias=False)

    def forward(self, x):
        x = F.normalize(self.mlp(x), dim=-1, p=2)
        return self.last_layer(x)


class DINOLoss(nn.Module):
    def __init__(self, out_dim, ncrops, student_temp=0.1, teacher_temp=0.04, center_momentum=0.9):
        super().__init__()
        self.ncrops = ncrops
        self.student_temp, self.teacher_temp = student_temp, teacher_temp
        self.center_momentum = center_momentum
        self.register_buffer("center", torch.zeros(1, out_dim))

    def forward(self, student_output, teacher_output):
        student_out = (student_output / self.student_temp).chunk(self.ncrops)
        teacher_out = F.softmax((teacher_output - self.center) / self.teacher_temp, dim=-1)
        teacher_out = teacher_out.detach().chunk(2)
        total_loss, n_terms = 0.0, 0
        for iq, q in enumerate(teacher_out):
            for v in range(len(student_out)):
                if v == iq:
                    continue
                loss = torch.sum(-q * F.log_softmax(student_out[v], dim=-1), dim=-1)
                total_loss = total_loss + loss.mean()
                n_terms += 1
        self.update_center(teacher_output)
        return total_loss / n_terms

    @torch.no_grad()
    def update_center(self, teacher_output):
        batch_center = teacher_output.mean(dim=0, keepdim=True)
        self.center.mul_(self.center_momentum).add_(batch_center, alpha=1 - self.center_momentum)


class Backbone(nn.Module):
    def __init__(self, in_dim=10, dim=24):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, dim), nn.LayerNorm(dim), nn.GELU(), nn.Linear(dim, dim))

    def forward(self, x):
        return self.net(x)


def main(momentum_teacher=0.996, ncrops=4):
    torch.manual_seed(0)
    student = nn.Sequential(Backbone(), DINOHead(24, 20))
    teacher = nn.Sequential(Backbone(), DINOHead(24, 20))
    teacher.load_state_dict(student.state_dict())
    for p in teacher.parameters():
        p.requires_grad = False
    dino_loss = DINOLoss(20, ncrops)
    opt = torch.optim.AdamW(student.parameters(), lr=5e-4, weight_decay=0.04)
    for it in range(2):
        base = torch.randn(6, 10)
        crops = [base + 0.1 * torch.randn_like(base) for _ in range(ncrops)]
        with torch.no_grad():
            teacher_output = teacher(torch.cat(crops[:2]))
        student_output = student(torch.cat(crops))
        loss = dino_loss(student_output, teacher_output)
        opt.zero_grad()
        loss.backward()
        if it == 0:
            for p in student[1].last_layer.parameters():
                p.grad = None
        opt.step()
        with torch.no_grad():
            for ps, pt in zip(student.parameters(), teacher.parameters()):
                pt.mul_(momentum_teacher).add_((1 - momentum_teacher) * ps.detach())
        print(f"iter {it} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
