# source: https://github.com/benedekrozemberczki/pytorch_geometric_temporal/issues/57 (fixed STConv.forward: T_0 and a zeros T)
# STGCN block whose per-(batch, time) graph convolutions read T_0 and are written into a fresh zeros buffer T.
import torch
import torch.nn as nn
import torch.nn.functional as F


class TemporalConv(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size=3):
        super().__init__()
        self.conv_1 = nn.Conv2d(in_channels, out_channels, (1, kernel_size))
        self.conv_2 = nn.Conv2d(in_channels, out_channels, (1, kernel_size))
        self.conv_3 = nn.Conv2d(in_channels, out_channels, (1, kernel_size))

    def forward(self, X):
        X = X.permute(0, 3, 2, 1)
        P = self.conv_1(X)
        Q = torch.sigmoid(self.conv_2(X))
        H = F.relu(P + Q + self.conv_3(X))
        return H.permute(0, 3, 2, 1)


class ChebConvK2(nn.Module):
    def __init__(self, channels, laplacian):
        super().__init__()
        self.register_buffer("L", laplacian)
        self.lins = nn.ModuleList([nn.Linear(channels, channels, bias=False) for _ in range(2)])
        self.bias = nn.Parameter(torch.zeros(channels))

    def forward(self, x):
        return self.lins[0](x) + self.lins[1](self.L @ x) + self.bias


class STConv(nn.Module):
    def __init__(self, num_nodes, in_channels, hidden_channels, out_channels, laplacian):
        super().__init__()
        self._temporal_conv1 = TemporalConv(in_channels, hidden_channels)
        self._graph_conv = ChebConvK2(hidden_channels, laplacian)
        self._temporal_conv2 = TemporalConv(hidden_channels, out_channels)
        self._batch_norm = nn.BatchNorm2d(num_nodes)

    def forward(self, X):
        T_0 = self._temporal_conv1(X)
        T = torch.zeros_like(T_0).to(T_0.device)
        for b in range(T_0.size(0)):
            for t in range(T_0.size(1)):
                T[b][t] = self._graph_conv(T_0[b][t])
        T = F.relu(T)
        T = self._temporal_conv2(T)
        T = T.permute(0, 2, 1, 3)
        T = self._batch_norm(T)
        return T.permute(0, 2, 1, 3)


def main():
    torch.manual_seed(0)
    N = 5
    A = (torch.rand(N, N) > 0.5).float()
    A = ((A + A.t()) > 0).float().fill_diagonal_(0)
    d = A.sum(1).clamp(min=1).pow(-0.5)
    L = torch.eye(N) - d[:, None] * A * d[None, :]
    model = STConv(N, 2, 8, 4, L)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    X = torch.randn(2, 8, N, 2)
    y = torch.randn(2, 4, N, 4)
    for step in range(2):
        opt.zero_grad()
        loss = F.mse_loss(model(X), y)
        loss.backward()
        opt.step()
        print(step, loss.item())


if __name__ == "__main__":
    main()
