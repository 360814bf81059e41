# intended: AGI001
# Mean teacher: consistency loss between student and teacher predictions.
# EMA update of the teacher is done (under no_grad) before the backward, and the
# teacher output was not detached.
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F


@torch.no_grad()
def update_ema(teacher, student, alpha=0.99):
    for t_p, s_p in zip(teacher.parameters(), student.parameters()):
        t_p.mul_(alpha).add_(s_p, alpha=1 - alpha)  # culprit


def main():
    torch.manual_seed(0)
    student = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 4))
    teacher = copy.deepcopy(student)
    opt = torch.optim.SGD(student.parameters(), lr=0.05)
    x_lab, y_lab = torch.randn(8, 8), torch.randint(0, 4, (8,))
    x_unl = torch.randn(16, 8)
    for step in range(3):
        sup = F.cross_entropy(student(x_lab), y_lab)
        s_prob = F.softmax(student(x_unl + 0.1 * torch.randn_like(x_unl)), dim=1)
        t_prob = F.softmax(teacher(x_unl + 0.1 * torch.randn_like(x_unl)), dim=1)
        cons = F.mse_loss(s_prob, t_prob)
        loss = sup + 2.0 * cons
        update_ema(teacher, student)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} sup {sup.item():.3f} cons {cons.item():.5f}")


if __name__ == "__main__":
    main()
