# source: mean-teacher semi-supervised training with an EMA teacher copied via deepcopy
# description: the EMA update of teacher parameters runs under torch.no_grad() after opt.step()
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
student = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 3))
teacher = copy.deepcopy(student)
opt = torch.optim.SGD(student.parameters(), lr=0.1)
decay = 0.99

for it in range(2):
    x = torch.randn(8, 6)
    y = torch.randint(0, 3, (8,))
    s_logits = student(x + 0.1 * torch.randn_like(x))
    with torch.no_grad():
        t_probs = F.softmax(teacher(x + 0.1 * torch.randn_like(x)), dim=-1)
    loss = F.cross_entropy(s_logits, y) + F.mse_loss(F.softmax(s_logits, dim=-1), t_probs)
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        for tp, sp in zip(teacher.parameters(), student.parameters()):
            tp.mul_(decay).add_(sp, alpha=1 - decay)
    print(it, loss.item())
