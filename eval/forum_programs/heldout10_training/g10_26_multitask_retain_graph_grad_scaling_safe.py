# source: multi-task learning with per-task gradient weighting (GradNorm-lite), shared encoder and two heads
# loss_a.backward(retain_graph=True), p.grad.mul_(w) in place, loss_b.backward(), then a single optimizer.step()
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


def scale_grads(model, w):
    for p in model.parameters():
        if p.grad is not None:
            p.grad.mul_(w)


def train(steps=3, batch=16):
    model = MultiTaskNet()
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    task_w = torch.tensor([1.0, 0.5])
    for step in range(steps):
        x = torch.randn(batch, IN_DIM)
        y_cls = torch.randint(0, 3, (batch,))
        y_reg = x.sum(dim=1)
        logits, pred = model(x)
        loss_a = F.cross_entropy(logits, y_cls)
        loss_b = F.mse_loss(pred, y_reg)

        opt.zero_grad()
        loss_a.backward(retain_graph=True)
        scale_grads(model, task_w[0].item() / task_w[1].item())
        loss_b.backward()
        scale_grads(model, task_w[1].item())
        opt.step()
        with torch.no_grad():
            task_w.mul_(0.9).add_(0.1 * torch.stack([loss_a, loss_b]).softmax(0))
        print(f"step {step}: cls={loss_a.item():.4f} reg={loss_b.item():.4f}")


if __name__ == "__main__":
    train()
