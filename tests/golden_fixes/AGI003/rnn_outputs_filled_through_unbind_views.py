"""An RNN that preallocates its outputs and fills them through ``outputs.unbind(0)``: each step's hidden
state requires grad, the buffer does not, and torch refuses to write a tensor that requires grad into an
output of unbind, at once. Writing ``outputs[t] = h`` would be fine."""
import torch
from torch import nn


class TinyRNN(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.cell = nn.RNNCell(dim, hidden)
        self.hidden = hidden

    def forward(self, x):
        steps_count, batch, _ = x.shape
        outputs = x.new_zeros(steps_count, batch, self.hidden)
        steps = outputs.unbind(0)
        h = x.new_zeros(batch, self.hidden)
        for t in range(steps_count):
            h = self.cell(x[t], h)
            steps[t].copy_(h)  # expect: AGI003
        return outputs


def run():
    torch.manual_seed(0)
    model = TinyRNN(3, 5)
    out = model(torch.randn(4, 2, 3))
    out.pow(2).mean().backward()
    return out


if __name__ == "__main__":
    print(run())
