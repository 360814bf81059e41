# source: multi-task learning script (shared encoder, two heads) with a hand-written SGD helper
# loss_a.backward(retain_graph=True); manual no_grad update of params; then loss_b.backward() through the shared encoder
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

IN_DIM, HIDDEN = 8, 32


class MultiTaskNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(IN_DIM, HIDDEN), nn.ReLU(), nn.Linear(HIDDEN, HIDDEN), nn.ReLU())
        self.cls_head = nn.Linear(HIDDEN, 3)
        self.reg_head = nn.Linear(HIDDEN, 1)

    def forward(self, x):
        h = self.encoder(x)
        return self.cls_head(h), self.reg_head(h).squeeze(-1)


def sgd_update(model, lr):
    with torch.no_grad():
        for p in model.parameters():
            if p.grad is None:
                continue
            p.sub_(lr * p.grad)  # culprit
            p.grad = None


def train(steps=3, batch=16, lr=0.05):
    model = MultiTaskNet()
    for step in range(steps):
        x = torch.randn(batch, IN_DIM)
        y_cls = torch.randint(0, 3, (batch,))
        y_reg = x.sum(dim=1)
        logits, pred = model(x)
        loss_a = F.cross_entropy(logits, y_cls)
        loss_b = F.mse_loss(pred, y_reg)

        # alternate updates: classification first, then regression
        loss_a.backward(retain_graph=True)
        sgd_update(model, lr)
        loss_b.backward()
        sgd_update(model, lr)
        print(f"step {step}: cls={loss_a.item():.4f} reg={loss_b.item():.4f}")


if __name__ == "__main__":
    train()
