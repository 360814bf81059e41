# source: knowledge distillation of a frozen teacher into a small pre-activation residual student
# description: the student block applies nn.ReLU(inplace=True) to a tensor that is already the output of F.relu
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class PreActBlock(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.act = nn.ReLU(inplace=True)
        self.fc = nn.Linear(d, d)

    def forward(self, x):
        return x + self.fc(self.act(x))  # culprit


class Student(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Linear(10, 16)
        self.block = PreActBlock(16)
        self.head = nn.Linear(16, 5)

    def forward(self, x):
        h = F.relu(self.stem(x))
        return self.head(self.block(h))


teacher = nn.Sequential(nn.Linear(10, 64), nn.ReLU(), nn.Linear(64, 5)).eval()
student = Student()
opt = torch.optim.Adam(student.parameters(), lr=1e-3)
T, a = 4.0, 0.7

for it in range(2):
    x = torch.randn(8, 10)
    y = torch.randint(0, 5, (8,))
    with torch.no_grad():
        t_logits = teacher(x)
    s_logits = student(x)
    kd = F.kl_div(F.log_softmax(s_logits / T, dim=-1), F.softmax(t_logits / T, dim=-1),
                  reduction="batchmean") * T * T
    loss = a * kd + (1 - a) * F.cross_entropy(s_logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(it, loss.item())
