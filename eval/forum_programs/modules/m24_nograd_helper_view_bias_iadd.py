# intended: AGI004
# pooling helper decorated with @torch.no_grad() "because it is just indexing"; the caller adds a learned bias in place
import torch
import torch.nn as nn


@torch.no_grad()
def last_token(h):
    return h[:, -1]


class Pooler(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.rnn = nn.GRU(d, d, batch_first=True)
        self.cls_bias = nn.Parameter(torch.zeros(d))
        self.head = nn.Linear(d, 2)

    def forward(self, x):
        out, _ = self.rnn(x)
        pooled = last_token(out)
        pooled += self.cls_bias  # culprit
        return self.head(pooled)


def main():
    torch.manual_seed(0)
    model = Pooler(4)
    x = torch.randn(3, 5, 4)
    loss = nn.functional.cross_entropy(model(x), torch.tensor([0, 1, 1]))
    loss.backward()
    print(model.cls_bias.grad)


if __name__ == "__main__":
    main()
