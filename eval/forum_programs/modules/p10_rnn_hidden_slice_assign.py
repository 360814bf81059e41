# vanilla RNN: writing the new hidden state into the same buffer with h[:] = ...
import torch
import torch.nn as nn


class MyRNN(nn.Module):
    def __init__(self, n_in, n_h):
        super().__init__()
        self.W = nn.Linear(n_in, n_h)
        self.U = nn.Linear(n_h, n_h, bias=False)
        self.n_h = n_h

    def forward(self, x):
        T, B, _ = x.shape
        h = torch.zeros(B, self.n_h)
        for t in range(T):
            h[:] = torch.tanh(self.W(x[t]) + self.U(h))  # culprit
        return h


def main():
    torch.manual_seed(0)
    rnn = MyRNN(3, 5)
    h = rnn(torch.randn(4, 2, 3))
    h.sum().backward()
    print(rnn.U.weight.grad)


if __name__ == "__main__":
    main()
