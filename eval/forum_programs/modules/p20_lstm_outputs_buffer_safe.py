# manual LSTM unroll storing hidden states into a preallocated tensor
import torch
import torch.nn as nn


class Tagger(nn.Module):
    def __init__(self, n_in, n_h, n_tags):
        super().__init__()
        self.cell = nn.LSTMCell(n_in, n_h)
        self.out = nn.Linear(n_h, n_tags)
        self.n_h = n_h

    def forward(self, x, lengths):
        B, T, _ = x.shape
        h = x.new_zeros(B, self.n_h)
        c = x.new_zeros(B, self.n_h)
        hs = x.new_zeros(B, T, self.n_h)
        for t in range(T):
            h, c = self.cell(x[:, t], (h, c))
            alive = (t < lengths).float().unsqueeze(1)
            h = h * alive
            hs[:, t] = h
        return self.out(hs)


def main():
    torch.manual_seed(0)
    m = Tagger(3, 5, 4)
    x = torch.randn(2, 6, 3)
    y = m(x, torch.tensor([6, 4]))
    nn.functional.cross_entropy(y.reshape(-1, 4), torch.randint(0, 4, (12,))).backward()
    print(m.cell.weight_hh.grad.norm())


if __name__ == "__main__":
    main()
