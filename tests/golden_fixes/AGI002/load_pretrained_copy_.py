"""Loading pretrained weights with ``copy_`` outside ``no_grad``: ``model.fc.weight`` is a leaf that
requires grad, so the copy raises at once (``load_state_dict`` does this under no_grad)."""
import torch
from torch import nn


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(x)


def run():
    torch.manual_seed(0)
    pretrained = {"fc.weight": torch.randn(2, 4), "fc.bias": torch.zeros(2)}
    model = Classifier()
    with torch.no_grad():
        model.fc.weight.copy_(pretrained["fc.weight"])  # expect: AGI002
    out = model(torch.randn(3, 4))
    out.sum().backward()
    return out


if __name__ == "__main__":
    print(run())
