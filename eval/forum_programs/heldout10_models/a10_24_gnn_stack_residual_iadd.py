# source: deep GraphSAGE / DeepGCN residual stack (PyG examples style) with plain torch message passing
# each layer output is accumulated with x += conv(x, edge_index), but conv's lin_self(x) kept x for its weight gradient
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


class SAGEConv(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.lin_self = nn.Linear(dim, dim)
        self.lin_neigh = nn.Linear(dim, dim, bias=False)

    def forward(self, x, edge_index):
        src, dst = edge_index
        N = x.size(0)
        agg = torch.zeros_like(x).index_add_(0, dst, x[src])
        cnt = torch.zeros(N).index_add_(0, dst, torch.ones(dst.numel()))
        cnt.clamp_(min=1)
        agg = agg / cnt[:, None]
        return F.relu(self.lin_self(x) + self.lin_neigh(agg))


class DeepSAGE(nn.Module):
    def __init__(self, cin=6, dim=16, layers=3, classes=3):
        super().__init__()
        self.encoder = nn.Linear(cin, dim)
        self.convs = nn.ModuleList(SAGEConv(dim) for _ in range(layers))
        self.norm = nn.LayerNorm(dim)
        self.cls = nn.Linear(dim, classes)

    def forward(self, x, edge_index):
        x = self.encoder(x)
        for conv in self.convs:
            x += conv(x, edge_index)  # culprit
        return self.cls(self.norm(x))


def train_epoch(model, opt, x, edge_index, y, mask):
    model.train()
    opt.zero_grad()
    loss = F.cross_entropy(model(x, edge_index)[mask], y[mask])
    loss.backward()
    opt.step()
    return loss.item()


if __name__ == "__main__":
    N = 25
    edge_index = torch.randint(0, N, (2, 80))
    x = torch.randn(N, 6)
    y = torch.randint(0, 3, (N,))
    mask = torch.rand(N) < 0.7
    model = DeepSAGE()
    opt = PlainSGD(model.parameters(), lr=0.01)
    print("loss", train_epoch(model, opt, x, edge_index, y, mask))
