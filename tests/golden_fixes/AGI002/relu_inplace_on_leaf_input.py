"""``F.relu(x, inplace=True)`` applied directly to an input that is a leaf requiring grad (an input whose
gradient is wanted, as in saliency maps): in-place on a leaf raises at once."""
import torch
import torch.nn.functional as F
from torch import nn


def run():
    torch.manual_seed(0)
    model = nn.Linear(4, 2)
    x = torch.randn(3, 4, requires_grad=True)
    h = F.relu(x)  # expect: AGI002
    out = model(h)
    out.sum().backward()
    return out


if __name__ == "__main__":
    print(run())
