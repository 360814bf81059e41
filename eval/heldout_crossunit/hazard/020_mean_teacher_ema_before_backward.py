# Source: lhoyer/DAFormer#29 (where the EMA teacher is updated inside forward_train) together
# with ultralytics/yolov5#5241 (v *= d; v += (1 - d) * msd[k] under no_grad). Here the teacher
# still requires grad and its EMA update runs before the consistency loss is backpropagated.
# Unit kind: function -- update_ema() writes the teacher parameters in place.
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
            t.mul_(decay).add_(s, alpha=1 - decay)  # culprit


def forward_train(x):
    p_s = torch.softmax(student(x), -1)
    p_t = torch.softmax(teacher(x), -1)
    loss = (p_s - p_t).pow(2).sum()
    update_ema(teacher, student)
    opt.zero_grad()
    loss.backward()
    opt.step()


forward_train(torch.randn(5, 4))
print("done")
