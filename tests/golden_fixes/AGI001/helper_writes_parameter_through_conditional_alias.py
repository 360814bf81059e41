"""Graph message passing (the PyG / GAT shape): ``propagate`` starts its output from the node features
themselves when ``root_weight`` is set -- ``out = h if self.root_weight else torch.zeros_like(h)`` -- and
adds the messages in place. On that path ``out`` *is* the caller's ``h``, which the attention scores
``h * self.att`` saved for backward: ``index_add_`` overwrites it."""
import torch
import torch.nn as nn


class GraphConv(nn.Module):
    def __init__(self, dim, root_weight=True):
        super().__init__()
        self.lin = nn.Linear(dim, dim, bias=False)
        self.att = nn.Parameter(torch.rand(1, dim))
        self.root_weight = root_weight

    def propagate(self, h, src, dst, alpha):
        msg = h[src] * alpha.unsqueeze(-1)
        out = h if self.root_weight else torch.zeros_like(h)
        out = out.index_add(0, dst, msg)  # expect: AGI001
        return out

    def forward(self, x, src, dst):
        h = self.lin(x)
        alpha = torch.sigmoid((h * self.att).sum(-1))[src]
        return self.propagate(h, src, dst, alpha)


def run():
    torch.manual_seed(0)
    conv = GraphConv(4)
    src, dst = torch.tensor([0, 1, 2, 3]), torch.tensor([1, 2, 3, 0])
    out = conv(torch.randn(4, 4), src, dst)
    out.sum().backward()
    return out


if __name__ == "__main__":
    print(run())
