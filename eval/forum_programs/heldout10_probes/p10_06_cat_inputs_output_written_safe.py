# probe: cat saves no tensor, so writing both its inputs and its output in place before backward is fine
import torch
import torch.nn as nn

torch.manual_seed(0)


class TokenBuilder(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.cls = nn.Parameter(torch.zeros(1, 1, dim))
        self.patch_proj = nn.Linear(12, dim)

    def forward(self, patches):
        tokens = self.patch_proj(patches)
        cls = self.cls.expand(patches.shape[0], 1, -1)
        seq = torch.cat([cls, tokens], dim=1)
        return seq, tokens


def main():
    builder = TokenBuilder(8)
    patches = torch.randn(2, 5, 12)
    seq, tokens = builder(patches)
    tokens.zero_()
    seq[:, 0] += 1.0
    loss = seq.pow(2).mean() + tokens.sum()
    loss.backward()
    print("cls grad", builder.cls.grad.abs().sum().item())


if __name__ == "__main__":
    main()
