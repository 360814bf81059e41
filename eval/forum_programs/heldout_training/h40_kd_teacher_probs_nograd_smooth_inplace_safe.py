# intended: safe
# Knowledge distillation: teacher probabilities computed under no_grad, then
# label-smoothed in place (mul_/add_) before the KL term.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
teacher = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 5))
student = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 5))
opt = torch.optim.SGD(student.parameters(), lr=0.1)
T, eps, K = 4.0, 0.1, 5
x, y = torch.randn(10, 8), torch.randint(0, 5, (10,))
for step in range(2):
    with torch.no_grad():
        t_prob = F.softmax(teacher(x) / T, dim=1)
    t_prob.mul_(1 - eps).add_(eps / K)
    s_logp = F.log_softmax(student(x) / T, dim=1)
    kd = F.kl_div(s_logp, t_prob, reduction="batchmean") * T * T
    loss = kd + F.cross_entropy(student(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, loss.item())
