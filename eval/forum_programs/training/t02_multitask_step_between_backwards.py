# intended: AGI001
# Multi-task model (shared encoder, two heads). I backprop each task loss separately
# so I can step after the first one; second backward fails.
import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiTask(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU())
        self.cls_head = nn.Linear(32, 3)
        self.reg_head = nn.Linear(32, 1)

    def forward(self, x):
        z = self.encoder(x)
        return self.cls_head(z), self.reg_head(z).squeeze(-1)


def main():
    torch.manual_seed(0)
    model = MultiTask()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    x = torch.randn(24, 10)
    y_cls, y_reg = torch.randint(0, 3, (24,)), torch.randn(24)
    for epoch in range(2):
        logits, pred = model(x)
        loss_cls = F.cross_entropy(logits, y_cls)
        loss_reg = F.mse_loss(pred, y_reg)
        optimizer.zero_grad()
        loss_cls.backward(retain_graph=True)
        optimizer.step()  # culprit
        optimizer.zero_grad()
        loss_reg.backward()
        optimizer.step()
        print(f"epoch {epoch}: cls {loss_cls.item():.3f} reg {loss_reg.item():.3f}")


if __name__ == "__main__":
    main()
