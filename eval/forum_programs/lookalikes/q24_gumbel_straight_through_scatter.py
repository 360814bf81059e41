# intended: safe
# Straight-through Gumbel-softmax: the hard one-hot is built by scatter_ into a fresh
# zeros tensor, then combined with the soft sample out of place.
import torch
import torch.nn as nn


def gumbel_softmax_st(logits, tau=1.0):
    u = torch.rand_like(logits).clamp_(1e-9, 1 - 1e-9)
    g = -torch.log(-torch.log(u))
    y_soft = ((logits + g) / tau).softmax(-1)
    idx = y_soft.argmax(-1, keepdim=True)
    y_hard = torch.zeros_like(logits).scatter_(-1, idx, 1.0)
    return y_hard - y_soft.detach() + y_soft


class DiscreteBottleneck(nn.Module):
    def __init__(self, d, k):
        super().__init__()
        self.enc = nn.Linear(d, k)
        self.codebook = nn.Linear(k, d, bias=False)

    def forward(self, x):
        return self.codebook(gumbel_softmax_st(self.enc(x), tau=0.7))


def main():
    torch.manual_seed(0)
    model = DiscreteBottleneck(6, 5)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    x = torch.randn(10, 6)
    for step in range(3):
        loss = (model(x) - x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, round(loss.item(), 4))


if __name__ == "__main__":
    main()
