# source: Hinton-style knowledge distillation loop (soft targets at temperature T plus hard-label CE), logits divided in place
# Distillation step: hard CE on the student's Linear logits first, then those logits are divided by T in place for the KD term.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def mlp(in_dim, hidden, out_dim):
    return nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(), nn.Linear(hidden, out_dim))


teacher = mlp(20, 128, 10).eval()
student = mlp(20, 32, 10)
opt = torch.optim.SGD(student.parameters(), lr=0.05, momentum=0.9)
cfg = {"T": 4.0, "alpha": 0.7}

for step in range(4):
    x, y = torch.randn(24, 20), torch.randint(0, 10, (24,))
    with torch.no_grad():
        t_logits = teacher(x)
    s_logits = student(x)

    hard = F.cross_entropy(s_logits, y)
    s_logits.div_(cfg["T"])
    t_logits.div_(cfg["T"])
    soft = F.kl_div(F.log_softmax(s_logits, dim=-1), F.softmax(t_logits, dim=-1),
                    reduction="batchmean") * cfg["T"] ** 2
    loss = cfg["alpha"] * soft + (1 - cfg["alpha"]) * hard

    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, hard.item(), soft.item())
