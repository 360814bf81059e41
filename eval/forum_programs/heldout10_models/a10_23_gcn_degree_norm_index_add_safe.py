# source: PyG GCNConv (Kipf & Welling) written with plain torch index_add_ message passing
# linear output scaled in place by D^-1/2, messages gathered by h[src] and index_add_-ed into zeros, then normalised in place
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class PlainSGD:
    """Minimal SGD(+momentum) so the script does not pay torch.optim's start-up cost."""

    def __init__(self, params, lr=0.01, momentum=0.0):
        self.params = list(params)
        self.lr, self.momentum = lr, momentum
        self.bufs = [None] * len(self.params)

    def zero_grad(self):
        for p in self.params:
            p.grad = None

    @torch.no_grad()
    def step(self):
        for i, p in enumerate(self.params):
            if p.grad is None:
                continue
            d = p.grad
            if self.momentum:
                if self.bufs[i] is None:
                    self.bufs[i] = d.clone()
                else:
                    self.bufs[i].mul_(self.momentum).add_(d)
                d = self.bufs[i]
            p.add_(d, alpha=-self.lr)


def add_self_loops(edge_index, num_nodes):
    loops = torch.arange(num_nodes).repeat(2, 1)
    return torch.cat([edge_index, loops], dim=1)


def sym_norm(dst, num_nodes):
    deg = torch.zeros(num_nodes).index_add_(0, dst, torch.ones(dst.numel()))
    dinv = deg.pow(-0.5)
    dinv.masked_fill_(torch.isinf(dinv), 0.0)
    return dinv


class GCNConv(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.lin = nn.Linear(cin, cout, bias=False)
        self.bias = nn.Parameter(torch.zeros(cout))

    def forward(self, x, edge_index):
        N = x.size(0)
        src, dst = add_self_loops(edge_index, N)
        dinv = sym_norm(dst, N)
        h = self.lin(x)
        h.mul_(dinv[:, None])
        out = torch.zeros_like(h)
        out.index_add_(0, dst, h[src])
        out.mul_(dinv[:, None])
        out += self.bias
        return out


class GCN(nn.Module):
    def __init__(self, cin=10, hidden=16, classes=4, p=0.5):
        super().__init__()
        self.conv1 = GCNConv(cin, hidden)
        self.conv2 = GCNConv(hidden, classes)
        self.p = p

    def forward(self, x, edge_index):
        h = self.conv1(x, edge_index)
        F.relu(h, inplace=True)
        h = F.dropout(h, self.p, self.training)
        return F.log_softmax(self.conv2(h, edge_index), dim=1)


if __name__ == "__main__":
    N = 30
    edge_index = torch.randint(0, N, (2, 90))
    edge_index = torch.cat([edge_index, edge_index.flip(0)], 1)
    x = torch.randn(N, 10)
    y = torch.randint(0, 4, (N,))
    train_mask = torch.zeros(N, dtype=torch.bool)
    train_mask[:18] = True
    model = GCN()
    opt = PlainSGD(model.parameters(), lr=0.01)
    for epoch in range(3):
        model.train()
        opt.zero_grad()
        out = model(x, edge_index)
        loss = F.nll_loss(out[train_mask], y[train_mask])
        loss.backward()
        opt.step()
        print(epoch, loss.item())
