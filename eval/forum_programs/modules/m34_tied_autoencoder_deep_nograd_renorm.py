# intended: AGI001
# same max-norm trick, but the tied layer now sits after a trainable input layer, so the encoder saved W
import torch
import torch.nn as nn
import torch.nn.functional as F


class TiedBottleneck(nn.Module):
    def __init__(self, d, k):
        super().__init__()
        self.inp = nn.Linear(d, d)
        self.W = nn.Parameter(torch.randn(k, d) * 0.5)

    def forward(self, x):
        x = torch.tanh(self.inp(x))
        h = torch.sigmoid(F.linear(x, self.W))
        with torch.no_grad():
            self.W.div_(self.W.norm(dim=1, keepdim=True).clamp_min(1.0))  # culprit
        return F.linear(h, self.W.t())


def main():
    torch.manual_seed(0)
    ae = TiedBottleneck(6, 3)
    x = torch.randn(8, 6)
    loss = F.mse_loss(ae(x), x)
    loss.backward()
    print(loss.item())


if __name__ == "__main__":
    main()
