# intended: safe
# like: lemniscate (NPID) LinearAverage memory bank, memory updated with index_copy_ in the same step it was read
import torch
import torch.nn as nn
import torch.nn.functional as F


class NCEAverage(nn.Module):
    def __init__(self, input_size, output_size, K=6, T=0.07, momentum=0.5):
        super().__init__()
        self.K, self.T, self.momentum = K, T, momentum
        self.register_buffer("memory", F.normalize(torch.randn(output_size, input_size), dim=1))

    def forward(self, x, y):
        batch_size = x.size(0)
        idx = torch.randint(0, self.memory.size(0), (batch_size, self.K + 1))
        idx[:, 0] = y
        weight = torch.index_select(self.memory, 0, idx.view(-1)).detach()
        weight = weight.view(batch_size, self.K + 1, -1)
        out = torch.exp(torch.bmm(weight, x.view(batch_size, -1, 1)).squeeze(-1) / self.T)
        with torch.no_grad():
            pos = torch.index_select(self.memory, 0, y.view(-1))
            pos.mul_(self.momentum)
            pos.add_(torch.mul(x.detach(), 1 - self.momentum))
            updated = F.normalize(pos, dim=1)
            self.memory.index_copy_(0, y, updated)
        return out


class Net(nn.Module):
    def __init__(self, low_dim=8):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(12, 32), nn.ReLU(inplace=True), nn.Linear(32, low_dim))

    def forward(self, x):
        return F.normalize(self.net(x), dim=1)


def nce_criterion(out, n_data):
    K = out.size(1) - 1
    Pn = 1.0 / n_data
    P_pos = out[:, 0]
    lnPmt = torch.log(P_pos / (P_pos + K * Pn + 1e-7))
    P_neg = out[:, 1:]
    lnPon = torch.log((K * Pn) / (P_neg + K * Pn + 1e-7))
    return -(lnPmt.sum() + lnPon.sum()) / out.size(0)


def main():
    torch.manual_seed(0)
    n_data = 40
    net, lemniscate = Net(), NCEAverage(8, n_data)
    optimizer = torch.optim.SGD(net.parameters(), lr=0.03, momentum=0.9, weight_decay=5e-4)
    data = torch.randn(n_data, 12)
    for epoch in range(2):
        for indexes in torch.randperm(n_data).split(10):
            feature = net(data[indexes])
            output = lemniscate(feature, indexes)
            loss = nce_criterion(output, n_data)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    main()
