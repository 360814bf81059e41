# intended: safe
# count model: softplus rates, padded vocabulary columns forced to zero rate with index_fill_
import torch
import torch.nn as nn
import torch.nn.functional as F


class RateHead(nn.Module):
    def __init__(self, d, vocab, pad_ids):
        super().__init__()
        self.head = nn.Linear(d, vocab)
        self.register_buffer("pad_ids", torch.tensor(pad_ids))

    def forward(self, h):
        rates = F.softplus(self.head(h))
        rates.index_fill_(1, self.pad_ids, 0.0)
        return rates


def main():
    torch.manual_seed(0)
    head = RateHead(4, 6, [0, 5])
    h = torch.randn(3, 4)
    counts = torch.poisson(torch.full((3, 6), 1.5))
    counts[:, [0, 5]] = 0
    rates = head(h)
    loss = (rates - counts * torch.log(rates + 1e-6)).mean()
    loss.backward()
    print(head.head.weight.grad.norm().item())


if __name__ == "__main__":
    main()
