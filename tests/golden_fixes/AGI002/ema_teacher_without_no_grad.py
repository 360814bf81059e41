"""A mean-teacher EMA update that forgot ``no_grad`` (and never froze the teacher): the teacher's
parameters are leaves that require grad, so ``t.mul_(m)`` raises at once."""
import copy

import torch
from torch import nn


def ema_update(teacher, student, m=0.99):
    for t, s in zip(teacher.parameters(), student.parameters()):
        with torch.no_grad():
            t.mul_(m).add_(s.detach(), alpha=1 - m)  # expect: AGI002


def run():
    torch.manual_seed(0)
    student = nn.Linear(3, 2)
    teacher = copy.deepcopy(student)
    opt = torch.optim.SGD(student.parameters(), lr=0.1)
    x = torch.randn(4, 3)
    out = student(x)
    loss = (out - teacher(x).detach()).pow(2).mean() + out.abs().mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    ema_update(teacher, student)
    return out


if __name__ == "__main__":
    print(run())
