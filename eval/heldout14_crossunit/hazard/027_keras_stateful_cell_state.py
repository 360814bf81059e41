# Source: https://github.com/keras-team/keras/pull/20916 (keras-team/keras PR #20916 "Fix PyTorch stateful RNN/LSTM gradient computation error": tensors needed for gradient computation were modified in place when stateful=True; fix: clone the state in RNN.step())
# Unit kind: cross-class
# The cell's recurrent Linear saves the state it is given; the stateful RNN wrapper
# keeps that state in a buffer and copies each new output into it in place.
import torch
import torch.nn as nn

torch.manual_seed(0)


class SimpleRNNCell(nn.Module):
    def __init__(self, din, dh):
        super().__init__()
        self.wx = nn.Linear(din, dh)
        self.wh = nn.Linear(dh, dh, bias=False)

    def forward(self, x, h):
        return torch.tanh(self.wx(x) + self.wh(h))


class StatefulRNN(nn.Module):
    def __init__(self, din, dh, batch):
        super().__init__()
        self.cell = SimpleRNNCell(din, dh)
        self.register_buffer("state", torch.zeros(batch, dh))

    def forward(self, seq):
        outs = []
        for x in seq.unbind(1):
            out = self.cell(x, self.state)
            self.state.copy_(out)  # culprit
            outs.append(out)
        return torch.stack(outs, dim=1)


rnn = StatefulRNN(3, 4, batch=2)
rnn(torch.randn(2, 3, 3)).sum().backward()
print("done")
