# intended: safe
# message passing: neighbour messages accumulated in place into the (LayerNorm-ed) node features
import torch
import torch.nn as nn
import torch.nn.functional as F


class MPLayer(nn.Module):
    def __init__(self, d_in, d):
        super().__init__()
        self.enc = nn.Linear(d_in, d)
        self.norm = nn.LayerNorm(d)
        self.msg = nn.Linear(d, d)

    def forward(self, feats, edge_index):
        src, dst = edge_index
        x = self.norm(self.enc(feats))
        m = self.msg(x[src])
        x.index_add_(0, dst, m)
        return F.relu(x)


def main():
    torch.manual_seed(0)
    layer = MPLayer(3, 4)
    feats = torch.randn(5, 3)
    edges = torch.tensor([[0, 1, 2, 3, 4, 0], [1, 2, 3, 4, 0, 2]])
    loss = layer(feats, edges).sum()
    loss.backward()
    print(layer.msg.weight.grad.norm().item())


if __name__ == "__main__":
    main()
