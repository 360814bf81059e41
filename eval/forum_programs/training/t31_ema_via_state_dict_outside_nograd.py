# intended: safe
# Model EMA updated through state_dict() tensors (detached aliases), outside no_grad.
# The EMA model is only ever run under no_grad, producing pseudo-targets.
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F


class ModelEma:
    def __init__(self, model, decay=0.9):
        self.module = copy.deepcopy(model).eval()
        self.decay = decay

    def update(self, model):
        msd = model.state_dict()
        for k, ema_v in self.module.state_dict().items():
            ema_v.mul_(self.decay).add_(msd[k], alpha=1.0 - self.decay)


def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 4))
    ema = ModelEma(model)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x = torch.randn(20, 8)
    for step in range(3):
        with torch.no_grad():
            pseudo = ema.module(x).softmax(dim=1)
        loss = F.kl_div(F.log_softmax(model(x + 0.1 * torch.randn_like(x)), dim=1), pseudo, reduction="batchmean")
        opt.zero_grad()
        loss.backward()
        opt.step()
        ema.update(model)
        print(f"{step}: {loss.item():.5f}")


if __name__ == "__main__":
    main()
