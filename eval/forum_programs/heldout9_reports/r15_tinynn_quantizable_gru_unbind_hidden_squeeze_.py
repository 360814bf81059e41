# source: https://github.com/alibaba/TinyNeuralNetwork/issues/238 (tinynn/graph/quantization/quantizable/gru.py, GRU.forward)
# Layer-by-layer "quantizable" GRU fed a hidden state from an upstream encoder; per-layer states are unbind()-ed and squeeze_()-d.
import torch
import torch.nn as nn
import torch.nn.functional as F


class GRUSingleLayer(nn.Module):
    def __init__(self, input_size, hidden_size):
        super().__init__()
        self.ih = nn.Linear(input_size, 3 * hidden_size)
        self.hh = nn.Linear(hidden_size, 3 * hidden_size)

    def forward(self, x, h):
        outs = []
        for t in range(x.size(0)):
            gi, gh = self.ih(x[t]), self.hh(h)
            i_r, i_z, i_n = gi.chunk(3, 1)
            h_r, h_z, h_n = gh.chunk(3, 1)
            r, z = torch.sigmoid(i_r + h_r), torch.sigmoid(i_z + h_z)
            n = torch.tanh(i_n + r * h_n)
            h = (1 - z) * n + z * h
            outs.append(h)
        return torch.stack(outs), h


class QuantizableGRU(nn.Module):
    def __init__(self, input_size, hidden_size, num_layers=2, batch_first=True):
        super().__init__()
        self.hidden_size, self.num_layers, self.batch_first = hidden_size, num_layers, batch_first
        self.layers = nn.ModuleList([GRUSingleLayer(input_size if i == 0 else hidden_size, hidden_size)
                                     for i in range(num_layers)])

    def forward(self, x, hidden=None):
        if self.batch_first:
            x = x.transpose(0, 1)
        max_batch_size, num_directions = x.size(1), 1
        if hidden is None:
            zeros = torch.zeros(num_directions, max_batch_size, self.hidden_size)
            zeros.squeeze_(0)
            hx = [zeros for _ in range(self.num_layers)]
        else:
            hx = hidden.reshape(self.num_layers, num_directions, max_batch_size, self.hidden_size).unbind(0)
            hx = [(hx[idx].squeeze_(0)) for idx in range(self.num_layers)]  # culprit
        hx_list = []
        for idx, layer in enumerate(self.layers):
            x, h = layer(x, hx[idx])
            hx_list.append(h)
        if self.batch_first:
            x = x.transpose(0, 1)
        return x, torch.stack(hx_list)


class CRNNKws(nn.Module):
    def __init__(self, n_mels=8, hidden=12, n_keywords=3):
        super().__init__()
        self.conv = nn.Conv1d(n_mels, hidden, 3, padding=1)
        self.h0_proj = nn.Linear(hidden, 2 * hidden)
        self.rnn = QuantizableGRU(hidden, hidden)
        self.fc = nn.Linear(hidden, n_keywords)

    def forward(self, mels):
        feats = F.relu(self.conv(mels)).transpose(1, 2)
        h0 = torch.tanh(self.h0_proj(feats.mean(1))).view(-1, 2, feats.size(-1)).transpose(0, 1)
        out, _ = self.rnn(feats, h0)
        return self.fc(out[:, -1])


def main():
    torch.manual_seed(0)
    model = CRNNKws()
    mels, labels = torch.randn(4, 8, 10), torch.randint(0, 3, (4,))
    loss = F.cross_entropy(model(mels), labels)
    loss.backward()
    print(loss.item())


if __name__ == "__main__":
    main()
