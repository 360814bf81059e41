# intended: AGI001
# hand-unrolled Elman RNN over padded batches: hidden state of finished sequences zeroed with h.mul_(keep)
import torch
import torch.nn as nn


class MaskedRNN(nn.Module):
    def __init__(self, n_in, n_hidden):
        super().__init__()
        self.hidden = n_hidden
        self.ih = nn.Linear(n_in, n_hidden)
        self.hh = nn.Linear(n_hidden, n_hidden, bias=False)

    def forward(self, x, lengths):
        B, T, _ = x.shape
        h = x.new_zeros(B, self.hidden)
        outs = []
        for t in range(T):
            h = torch.tanh(self.ih(x[:, t]) + self.hh(h))
            keep = (t < lengths).float().unsqueeze(1)
            h.mul_(keep)  # culprit
            outs.append(h)
        return torch.stack(outs, 1)


def main():
    torch.manual_seed(0)
    rnn = MaskedRNN(3, 4)
    x = torch.randn(2, 5, 3)
    lengths = torch.tensor([5, 3])
    out = rnn(x, lengths)
    loss = out.sum(1).pow(2).mean()
    loss.backward()
    print(rnn.hh.weight.grad.norm().item())


if __name__ == "__main__":
    main()
