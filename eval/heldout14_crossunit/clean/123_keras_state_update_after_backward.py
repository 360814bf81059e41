# Source: https://github.com/keras-team/keras/pull/20916 (keras-team/keras PR #20916: stateful RNN state in the PyTorch backend)
# Unit kind: cross-class
# Look-alike of hazard/027: the stateful wrapper keeps the new state aside during the
# forward, and a separate callback class copies it (detached) into the state buffer
# only after the batch's backward and optimizer step.
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
        self.pending_state = None

    def forward(self, seq):
        h, outs = self.state, []
        for x in seq.unbind(1):
            h = self.cell(x, h)
            outs.append(h)
        self.pending_state = h
        return torch.stack(outs, dim=1)


class ResetStatesCallback:
    def on_batch_end(self, model):
        model.state.copy_(model.pending_state.detach())


rnn = StatefulRNN(3, 4, batch=2)
opt = torch.optim.SGD(rnn.parameters(), lr=0.1)
callback = ResetStatesCallback()
for _ in range(2):
    loss = rnn(torch.randn(2, 3, 3)).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    callback.on_batch_end(rnn)
print("done")
