# source: https://github.com/Vegeta2020/SE-SSD/issues/89
# Mean-teacher update_ema_variables written without .data / no_grad: mul_ on a deep-copied leaf parameter.
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def update_ema_variables(model, ema_model, global_step):
    alpha = min(1 - 1 / (global_step + 1), 0.999)
    for ema_param, param in zip(ema_model.parameters(), model.parameters()):
        ema_param.mul_(alpha).add_(param.detach(), alpha=1 - alpha)  # culprit


model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
ema_model = copy.deepcopy(model)
opt = torch.optim.SGD(model.parameters(), lr=0.1)

for step in range(3):
    x = torch.randn(6, 4)
    y = torch.randint(0, 2, (6,))
    with torch.no_grad():
        teacher = F.softmax(ema_model(x + 0.05 * torch.randn_like(x)), dim=1)
    logits = model(x)
    loss = F.cross_entropy(logits, y) + F.mse_loss(F.softmax(logits, dim=1), teacher)
    opt.zero_grad()
    loss.backward()
    opt.step()
    update_ema_variables(model, ema_model, step)
print("done")
