# flattening a sigmoid output with reshape() (a view) and zeroing some entries
import torch
import torch.nn as nn


class MaskHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(4, 1, 1)

    def forward(self, feat, ignore):
        prob = self.conv(feat).sigmoid()
        flat = prob.reshape(prob.size(0), -1)
        flat[:, ignore] = 0.0  # culprit
        return prob


def main():
    torch.manual_seed(0)
    head = MaskHead()
    prob = head(torch.randn(2, 4, 4, 4), torch.tensor([0, 5, 9]))
    loss = nn.functional.binary_cross_entropy(prob, torch.ones_like(prob) * 0.5)
    loss.backward()
    print(head.conv.weight.grad.norm())


if __name__ == "__main__":
    main()
