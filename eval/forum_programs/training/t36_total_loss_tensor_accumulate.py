# intended: safe
# Accumulating the graph-carrying loss over micro-batches with total_loss += loss
# and calling backward once; logging with .item().
import torch
import torch.nn as nn
import torch.nn.functional as F


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(7, 20), nn.Softplus(), nn.Linear(20, 3))

    def forward(self, x):
        return F.log_softmax(self.net(x), dim=-1)


def main():
    torch.manual_seed(0)
    model = Classifier()
    opt = torch.optim.Adagrad(model.parameters(), lr=0.05)
    X, Y = torch.randn(24, 7), torch.randint(0, 3, (24,))
    for epoch in range(2):
        total_loss = torch.zeros(())
        epoch_log = 0.0
        for xb, yb in zip(X.split(6), Y.split(6)):
            logp = model(xb)
            loss = F.nll_loss(logp, yb)
            total_loss += loss
            epoch_log += loss.item()
        opt.zero_grad()
        total_loss /= 4
        total_loss.backward()
        opt.step()
        print(f"epoch {epoch} mean loss {epoch_log / 4:.4f} ({total_loss.item():.4f})")


if __name__ == "__main__":
    main()
