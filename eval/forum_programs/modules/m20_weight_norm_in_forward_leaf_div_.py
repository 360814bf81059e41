# intended: AGI002
# cosine classifier: weight rows normalised in place at the start of every forward
import torch
import torch.nn as nn
import torch.nn.functional as F


class CosineLinear(nn.Module):
    def __init__(self, in_features, out_features, s=10.0):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(out_features, in_features))
        self.s = s

    def forward(self, x):
        self.weight /= self.weight.norm(dim=1, keepdim=True)  # culprit
        x = F.normalize(x, dim=1)
        return self.s * x @ self.weight.t()


def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), CosineLinear(8, 3))
    x, y = torch.randn(5, 4), torch.tensor([0, 1, 2, 0, 1])
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    print(loss.item())


if __name__ == "__main__":
    main()
