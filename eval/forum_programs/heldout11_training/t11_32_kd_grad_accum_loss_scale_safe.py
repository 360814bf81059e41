# source: knowledge distillation with gradient accumulation and manual static loss scaling
# description: in-place ReLU after Linear, in-place temperature division of logits after CE, and in-place loss scaling are all safe
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
teacher = nn.Sequential(nn.Linear(10, 64), nn.ReLU(), nn.Linear(64, 5)).eval()
student = nn.Sequential(nn.Linear(10, 16), nn.ReLU(inplace=True), nn.Linear(16, 5))
opt = torch.optim.SGD(student.parameters(), lr=0.05, momentum=0.9)
T, a, accum, scale = 4.0, 0.7, 2, 128.0

opt.zero_grad()
for micro in range(accum):
    x = torch.randn(8, 10)
    y = torch.randint(0, 5, (8,))
    with torch.no_grad():
        t_logits = teacher(x)
        t_logits /= T
    s_logits = student(x)
    ce = F.cross_entropy(s_logits, y)
    s_logits /= T
    kd = F.kl_div(F.log_softmax(s_logits, dim=-1), F.softmax(t_logits, dim=-1),
                  reduction="batchmean")
    loss = a * kd * T * T + (1 - a) * ce
    loss /= accum
    loss *= scale
    loss.backward()
    print(micro, loss.item() / scale)

for p in student.parameters():
    p.grad.div_(scale)
torch.nn.utils.clip_grad_norm_(student.parameters(), 1.0)
opt.step()
