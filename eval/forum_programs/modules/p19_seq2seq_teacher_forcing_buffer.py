# decoder writes each step into an outputs buffer and feeds the previous slot back in
import torch
import torch.nn as nn


class Decoder(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.cell = nn.GRUCell(d, d)
        self.fc = nn.Linear(d, d)

    def forward(self, h, start, steps, target=None, tf_ratio=0.0):
        B, D = start.shape
        outputs = torch.zeros(steps, B, D)
        inp = start
        for t in range(steps):
            h = self.cell(inp, h)
            outputs[t] = self.fc(h)  # culprit
            use_tf = target is not None and torch.rand(1).item() < tf_ratio
            inp = target[t] if use_tf else outputs[t]
        return outputs


def main():
    torch.manual_seed(0)
    dec = Decoder(4)
    out = dec(torch.zeros(2, 4), torch.randn(2, 4), 4)
    out.pow(2).mean().backward()
    print(dec.fc.weight.grad.norm())


if __name__ == "__main__":
    main()
