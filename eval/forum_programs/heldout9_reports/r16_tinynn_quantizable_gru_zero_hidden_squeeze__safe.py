# source: https://github.com/alibaba/TinyNeuralNetwork/issues/238 (same GRU.forward, hidden=None branch: zeros.squeeze_(0))
# Keyword-spotting CRNN that starts the layer-by-layer GRU from its own zero state, squeezed in place.
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
            hx = [hx[idx].squeeze(0) for idx in range(self.num_layers)]
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
        self.rnn = QuantizableGRU(hidden, hidden)
        self.fc = nn.Linear(hidden, n_keywords)

    def forward(self, mels):
        feats = F.relu(self.conv(mels)).transpose(1, 2)
        out, h_n = self.rnn(feats)
        return self.fc(out[:, -1]), h_n


def main():
    torch.manual_seed(0)
    model = CRNNKws()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    mels, labels = torch.randn(4, 8, 10), torch.randint(0, 3, (4,))
    for step in range(2):
        opt.zero_grad()
        logits, _ = model(mels)
        loss = F.cross_entropy(logits, labels)
        loss.backward()
        opt.step()
        print(step, loss.item())


if __name__ == "__main__":
    main()
