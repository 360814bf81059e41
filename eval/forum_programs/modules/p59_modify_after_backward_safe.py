# post-processing predictions in place for metrics *after* backward has run
import torch
import torch.nn as nn


def train_step(model, opt, x, y):
    probs = torch.sigmoid(model(x)).squeeze(1)
    loss = nn.functional.binary_cross_entropy(probs, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    probs[probs < 0.5] = 0.0
    probs.ceil_()
    acc = (probs == y).float().mean()
    return loss.item(), acc.item()


def main():
    torch.manual_seed(0)
    model = nn.Linear(3, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x = torch.randn(8, 3)
    y = (x[:, 0] > 0).float()
    for _ in range(3):
        print(train_step(model, opt, x, y))


if __name__ == "__main__":
    main()
