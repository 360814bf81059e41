# source: https://github.com/alibaba/TinyNeuralNetwork/issues/238
# TinyNeuralNetwork quantizable GRU (QAT-rewritten CRNN KWS model): hx is unbound per layer, then the out-of-place hx[idx].squeeze(0) is used per layer
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class FakeQuantize(nn.Module):
    """Per-tensor int8 fake quant with a straight-through estimator."""

    def __init__(self, bits=8):
        super().__init__()
        self.qmax = 2 ** (bits - 1) - 1
        self.register_buffer("scale", torch.tensor(1.0))

    def forward(self, x):
        if self.training:
            with torch.no_grad():
                self.scale.copy_(x.detach().abs().max().clamp(min=1e-8) / self.qmax)
        q = torch.clamp(torch.round(x / self.scale), -self.qmax - 1, self.qmax) * self.scale
        return x + (q - x).detach()


class _GRUCell(nn.Module):
    def __init__(self, input_dim, hidden_dim):
        super().__init__()
        self.igates = nn.Linear(input_dim, 3 * hidden_dim)
        self.hgates = nn.Linear(hidden_dim, 3 * hidden_dim)
        self.hidden_size = hidden_dim

    def forward(self, x, hidden):
        gi = self.igates(x)
        gh = self.hgates(hidden)
        i_r, i_z, i_n = gi.chunk(3, 1)
        h_r, h_z, h_n = gh.chunk(3, 1)
        r = torch.sigmoid(i_r + h_r)
        z = torch.sigmoid(i_z + h_z)
        n = torch.tanh(i_n + r * h_n)
        return (1 - z) * n + z * hidden


class _GRULayer(nn.Module):
    def __init__(self, input_dim, hidden_dim):
        super().__init__()
        self.cell = _GRUCell(input_dim, hidden_dim)

    def forward(self, x, hidden):
        result = []
        for xx in x:
            hidden = self.cell(xx, hidden)
            result.append(hidden)
        return torch.stack(result, 0), hidden


class GRU(nn.Module):
    def __init__(self, input_size, hidden_size, num_layers=1, batch_first=False):
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.batch_first = batch_first
        layers = [_GRULayer(input_size, hidden_size)]
        layers.extend(_GRULayer(hidden_size, hidden_size) for _ in range(1, num_layers))
        self.layers = nn.ModuleList(layers)

    def forward(self, input, hx=None):
        if self.batch_first:
            input = input.transpose(0, 1)
        max_batch_size = input.size(1)
        num_directions = 1
        if hx is None:
            hx = torch.zeros(self.num_layers * num_directions, max_batch_size, self.hidden_size)
        hx = hx.reshape(self.num_layers, num_directions, max_batch_size, self.hidden_size).unbind(0)
        hx = [(hx[idx].squeeze(0)) for idx in range(self.num_layers)]
        h_list = []
        for idx, layer in enumerate(self.layers):
            input, h = layer(input, hx[idx])
            h_list.append(h)
        h_tensor = torch.stack(h_list)
        if self.batch_first:
            input = input.transpose(0, 1)
        return input, h_tensor


class CRNNKWSCleanModel_q(nn.Module):
    """Shape of the graph-rewritten QAT model from the report (out/crnnkwscleanmodel_q.py)."""

    def __init__(self, n_mels=10, hidden=16, n_keywords=4):
        super().__init__()
        self.fake_quant_0 = FakeQuantize()
        self.conv = nn.Conv2d(1, 4, 3, padding=1)
        self.fake_quant_1 = FakeQuantize()
        self.h0 = nn.Parameter(torch.zeros(2, 1, hidden))
        self.fake_quant_2 = FakeQuantize()
        self.kws_predictor_rnn = GRU(4 * n_mels, hidden, num_layers=2, batch_first=True)
        self.fc = nn.Linear(hidden, n_keywords)

    def forward(self, feats):
        b, t, f = feats.shape
        x = self.fake_quant_0(feats)
        x = F.relu(self.conv(x.unsqueeze(1)))
        x = self.fake_quant_1(x)
        reshape_0_f = x.permute(0, 2, 1, 3).reshape(b, t, -1)
        fake_quant_2 = self.fake_quant_2(self.h0.expand(-1, b, -1))
        kws_predictor_rnn = self.kws_predictor_rnn(reshape_0_f, fake_quant_2)
        out, _ = kws_predictor_rnn
        return self.fc(out[:, -1])


model = CRNNKWSCleanModel_q()
model.train()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
feats = torch.randn(3, 12, 10)
labels = torch.randint(0, 4, (3,))
logits = model(feats)
loss = F.cross_entropy(logits, labels)
optimizer.zero_grad()
loss.backward()
optimizer.step()
print("loss", loss.item())
