# intended: AGI001
# imputation model: known entries written back into the tanh state with masked_scatter_
import torch
import torch.nn as nn


class Imputer(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.fc = nn.Linear(d, d)
        self.out = nn.Linear(d, d)

    def forward(self, x, known_mask, known_vals):
        h = torch.tanh(self.fc(x))
        h.masked_scatter_(known_mask, known_vals)  # culprit
        return self.out(h)


def main():
    torch.manual_seed(0)
    model = Imputer(4)
    x = torch.randn(3, 4)
    known = torch.rand(3, 4) > 0.5
    vals = torch.randn(int(known.sum()))
    loss = model(x, known, vals).pow(2).mean()
    loss.backward()
    print(model.fc.weight.grad.norm().item())


if __name__ == "__main__":
    main()
