# intended: safe
# nn.LSTMCell unrolled over padded batches; h and c of finished sequences are zeroed in place after each step
import torch
from torch import nn


class Encoder(nn.Module):
    def __init__(self, n_in, n_hidden):
        super().__init__()
        self.cell = nn.LSTMCell(n_in, n_hidden)
        self.n_hidden = n_hidden

    def forward(self, x, lengths):
        B, T, _ = x.shape
        h = x.new_zeros(B, self.n_hidden)
        c = x.new_zeros(B, self.n_hidden)
        outputs = []
        for t in range(T):
            h, c = self.cell(x[:, t], (h, c))
            keep = (lengths > t).to(x.dtype).unsqueeze(-1)
            h.mul_(keep)
            c.mul_(keep)
            outputs.append(h)
        return torch.stack(outputs, dim=1), h


def main():
    torch.manual_seed(0)
    enc = Encoder(3, 5)
    x = torch.randn(3, 4, 3)
    lengths = torch.tensor([4, 2, 1])
    seq, last = enc(x, lengths)
    loss = seq.mean() + last.pow(2).sum()
    loss.backward()
    print(enc.cell.weight_hh.grad.norm().item())


if __name__ == "__main__":
    main()
