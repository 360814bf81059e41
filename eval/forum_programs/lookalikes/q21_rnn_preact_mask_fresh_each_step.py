# intended: safe
# Elman RNN with variational (locked) dropout applied in place to each step's
# pre-activation. `pre` is a fresh Linear output every iteration; tanh saves its result h.
import torch
import torch.nn as nn


class LockedDropoutRNN(nn.Module):
    def __init__(self, d_in, d_h, p=0.3):
        super().__init__()
        self.ih = nn.Linear(d_in, d_h)
        self.hh = nn.Linear(d_h, d_h, bias=False)
        self.p, self.d_h = p, d_h

    def forward(self, x):
        B, T, _ = x.shape
        keep = torch.bernoulli(torch.full((B, self.d_h), 1 - self.p)) / (1 - self.p)
        h = x.new_zeros(B, self.d_h)
        outs = []
        for t in range(T):
            pre = self.ih(x[:, t])
            pre += self.hh(h)
            pre.mul_(keep)
            h = torch.tanh(pre)
            outs.append(h)
        return torch.stack(outs, 1)


def main():
    torch.manual_seed(0)
    rnn = LockedDropoutRNN(4, 10)
    head = nn.Linear(10, 1)
    x = torch.randn(3, 7, 4)
    y = torch.randn(3, 7, 1)
    loss = (head(rnn(x)) - y).pow(2).mean()
    loss.backward()
    print(loss.item(), rnn.hh.weight.grad.norm().item())


if __name__ == "__main__":
    main()
