# source: custom LSTM cell (pytorch/benchmarks fastrnns, AWD-LSTM style) with gates from chunk()
# description: the cell gate from gates.chunk(4) is squashed with tanh_() in-place, but chunk returns multiple views
import torch
import torch.nn as nn


class LSTMCell(nn.Module):
    def __init__(self, input_size, hidden_size):
        super().__init__()
        self.weight_ih = nn.Parameter(torch.randn(4 * hidden_size, input_size) * 0.1)
        self.weight_hh = nn.Parameter(torch.randn(4 * hidden_size, hidden_size) * 0.1)
        self.bias = nn.Parameter(torch.zeros(4 * hidden_size))

    def forward(self, x, state):
        hx, cx = state
        gates = x @ self.weight_ih.t() + hx @ self.weight_hh.t() + self.bias
        ingate, forgetgate, cellgate, outgate = gates.chunk(4, 1)
        ingate = torch.sigmoid(ingate)
        forgetgate = torch.sigmoid(forgetgate)
        cellgate.tanh_()  # culprit
        outgate = torch.sigmoid(outgate)
        cy = forgetgate * cx + ingate * cellgate
        hy = outgate * torch.tanh(cy)
        return hy, (hy, cy)


if __name__ == "__main__":
    torch.manual_seed(0)
    cell = LSTMCell(5, 6)
    xs = torch.randn(3, 2, 5)
    state = (torch.zeros(2, 6), torch.zeros(2, 6))
    outs = []
    for t in range(xs.shape[0]):
        h, state = cell(xs[t], state)
        outs.append(h)
    loss = torch.stack(outs).sum()
    loss.backward()
