"""A step-by-step decoder writes each step's output into a preallocated canvas. The author takes the
canvas's rows under ``no_grad`` ("just indexing, no need to track it") and copies the decoder's outputs
into them afterwards: each row is a view made under no_grad, and copying a tensor that requires grad into
it is refused at once."""
import torch
from torch import nn


class StepDecoder(nn.Module):
    def __init__(self, dim=6, steps=4):
        super().__init__()
        self.cell = nn.GRUCell(dim, dim)
        self.out = nn.Linear(dim, dim)
        self.steps = steps

    def forward(self, h):
        canvas = torch.zeros(self.steps, h.shape[0], h.shape[1])
        x = torch.zeros_like(h)
        for t in range(self.steps):
            h = self.cell(x, h)
            x = self.out(h)
            with torch.no_grad():
                row = canvas[t]
            row.copy_(x)  # expect: AGI004
        return canvas


def run():
    torch.manual_seed(0)
    model = StepDecoder()
    canvas = model(torch.randn(3, 6))
    canvas.pow(2).mean().backward()
    return canvas


if __name__ == "__main__":
    print(run())
