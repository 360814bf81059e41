# intended: AGI002
# EMA of model weights for evaluation (mean teacher).
import copy
import torch
import torch.nn as nn

class EMA:
    def __init__(self, model, decay=0.99):
        self.decay = decay
        self.shadow = copy.deepcopy(model)
    def update(self, model):
        for s, p in zip(self.shadow.parameters(), model.parameters()):
            s.mul_(self.decay).add_(p.detach(), alpha=1 - self.decay)  # culprit

def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 1))
    ema = EMA(model)
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    x, y = torch.randn(32, 6), torch.randn(32, 1)
    for step in range(5):
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        ema.update(model)
    print(nn.functional.mse_loss(ema.shadow(x), y).item())

if __name__ == "__main__":
    main()
