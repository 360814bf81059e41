# timm-style gated block: act_layer passed as a class and built with inplace=True
import torch
import torch.nn as nn


class GatedMlp(nn.Module):
    def __init__(self, dim, hidden, act_layer=nn.ReLU, norm_layer=nn.LayerNorm):
        super().__init__()
        self.norm = norm_layer(dim)
        self.fc_gate = nn.Linear(dim, hidden)
        self.fc_val = nn.Linear(dim, hidden)
        self.act = act_layer(inplace=True)
        self.fc_out = nn.Linear(hidden, dim)

    def forward(self, x):
        x = self.norm(x)
        gate = torch.tanh(self.fc_gate(x))
        gate = self.act(gate)  # culprit
        return self.fc_out(gate * self.fc_val(x))


def main():
    torch.manual_seed(0)
    blk = GatedMlp(16, 32, act_layer=nn.ReLU)
    x = torch.randn(4, 16)
    out = blk(x)
    out.pow(2).mean().backward()
    print(blk.fc_gate.weight.grad.abs().sum())


if __name__ == "__main__":
    main()
