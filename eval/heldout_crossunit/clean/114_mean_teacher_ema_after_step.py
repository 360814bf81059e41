# Source: lhoyer/DAFormer#29 (the EMA teacher is updated at the start of forward_train, before any
# loss is built through it) and ultralytics/yolov5#5241.
# Clean look-alike of hazard/020: update_ema() runs after backward and step.
# Unit kind: function.
import torch
import torch.nn as nn

torch.manual_seed(0)
student = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
teacher = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
teacher.load_state_dict(student.state_dict())
opt = torch.optim.SGD(student.parameters(), lr=0.1)


def update_ema(ema, model, decay=0.99):
    with torch.no_grad():
        for t, s in zip(ema.parameters(), model.parameters()):
            t.mul_(decay).add_(s, alpha=1 - decay)


def forward_train(x):
    p_s = torch.softmax(student(x), -1)
    p_t = torch.softmax(teacher(x), -1)
    loss = (p_s - p_t).pow(2).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    update_ema(teacher, student)


forward_train(torch.randn(5, 4))
print("done")
