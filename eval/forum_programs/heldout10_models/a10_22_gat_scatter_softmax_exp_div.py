# source: PyG GATConv written with plain torch (edge softmax via scatter_reduce_ / index_add_)
# edge scores exponentiated, per-destination sums collected with index_add_, then alpha = exp(...) normalised in place with div_
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


def random_graph(num_nodes, num_edges):
    src = torch.randint(0, num_nodes, (num_edges,))
    dst = torch.randint(0, num_nodes, (num_edges,))
    loops = torch.arange(num_nodes)
    return torch.stack([torch.cat([src, loops]), torch.cat([dst, loops])])


class GATLayer(nn.Module):
    def __init__(self, cin, cout, heads=2, dropout=0.1, concat=True):
        super().__init__()
        self.lin = nn.Linear(cin, heads * cout, bias=False)
        self.att_src = nn.Parameter(torch.randn(1, heads, cout) * 0.1)
        self.att_dst = nn.Parameter(torch.randn(1, heads, cout) * 0.1)
        self.bias = nn.Parameter(torch.zeros(heads * cout if concat else cout))
        self.h, self.c, self.dropout, self.concat = heads, cout, dropout, concat

    def edge_softmax(self, e, dst, num_nodes):
        e_max = torch.zeros(num_nodes, self.h)
        e_max.scatter_reduce_(0, dst[:, None].expand(-1, self.h), e.detach(), "amax", include_self=False)
        alpha = (e - e_max[dst]).exp()
        denom = torch.zeros(num_nodes, self.h).index_add_(0, dst, alpha)
        alpha.div_(denom[dst] + 1e-16)  # culprit
        return alpha

    def forward(self, x, edge_index):
        N = x.size(0)
        src, dst = edge_index
        h = self.lin(x).view(N, self.h, self.c)
        a_src = (h * self.att_src).sum(-1)
        a_dst = (h * self.att_dst).sum(-1)
        e = F.leaky_relu(a_src[src] + a_dst[dst], 0.2)
        alpha = self.edge_softmax(e, dst, N)
        alpha = F.dropout(alpha, self.dropout, self.training)
        out = torch.zeros_like(h).index_add_(0, dst, h[src] * alpha[..., None])
        out = out.reshape(N, -1) if self.concat else out.mean(1)
        return out + self.bias


class GAT(nn.Module):
    def __init__(self, cin=8, hidden=8, classes=3):
        super().__init__()
        self.conv1 = GATLayer(cin, hidden, heads=2)
        self.conv2 = GATLayer(2 * hidden, classes, heads=1, concat=False)

    def forward(self, x, edge_index):
        x = F.elu(self.conv1(F.dropout(x, 0.2, self.training), edge_index))
        return self.conv2(x, edge_index)


if __name__ == "__main__":
    N = 20
    edge_index = random_graph(N, 60)
    x = torch.randn(N, 8)
    y = torch.randint(0, 3, (N,))
    train_mask = torch.rand(N) < 0.6
    model = GAT()
    opt = PlainSGD(model.parameters(), lr=0.005)
    model.train()
    out = model(x, edge_index)
    loss = F.cross_entropy(out[train_mask], y[train_mask])
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("loss", loss.item())
