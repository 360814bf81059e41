# source: https://github.com/dmlc/dgl/pull/4218 (fix for dgl#4202: stack outputs with unsqueeze + cat, then mean)
import torch
import torch.nn as nn
import torch.nn.functional as F


class ARMAConv(nn.Module):
    def __init__(self, in_dim, out_dim, num_stacks, num_layers, activation=None, dropout=0.0, bias=True):
        super().__init__()
        self.in_dim = in_dim
        self.out_dim = out_dim
        self.K = num_stacks
        self.T = num_layers
        self.activation = activation
        self.dropout = nn.Dropout(p=dropout)
        self.w_0 = nn.ModuleDict({str(k): nn.Linear(in_dim, out_dim, bias=False) for k in range(self.K)})
        self.w = nn.ModuleDict({str(k): nn.Linear(out_dim, out_dim, bias=False) for k in range(self.K)})
        self.v = nn.ModuleDict({str(k): nn.Linear(in_dim, out_dim, bias=False) for k in range(self.K)})
        self.bias = nn.Parameter(torch.zeros(self.K, self.T, 1, self.out_dim)) if bias else None

    def forward(self, adj, feats):
        init_feats = feats
        degs = adj.sum(1).clamp(min=1)
        norm = torch.pow(degs, -0.5).unsqueeze(-1)
        output = None
        for k in range(self.K):
            feats = init_feats
            for t in range(self.T):
                feats = feats * norm
                feats = adj @ feats
                feats = feats * norm
                if t == 0:
                    feats = self.w_0[str(k)](feats)
                else:
                    feats = self.w[str(k)](feats)
                feats += self.dropout(self.v[str(k)](init_feats))
                feats += self.v[str(k)](self.dropout(init_feats))
                if self.bias is not None:
                    feats += self.bias[k][t]
                if self.activation is not None:
                    feats = self.activation(feats)
            if k == 0:
                output = feats.unsqueeze(-3)
            else:
                output = torch.cat([output, feats.unsqueeze(-3)], dim=-3)
        return output.mean(dim=-3)


class ARMA4NC(nn.Module):
    def __init__(self, in_dim, hid_dim, out_dim, num_stacks, num_layers, activation=None, dropout=0.0):
        super().__init__()
        self.conv1 = ARMAConv(in_dim, hid_dim, num_stacks, num_layers, activation, dropout)
        self.conv2 = ARMAConv(hid_dim, out_dim, num_stacks, num_layers, activation, dropout)
        self.dropout = nn.Dropout(p=dropout)

    def forward(self, adj, feats):
        feats = self.conv1(adj, feats)
        feats = self.dropout(feats)
        feats = self.conv2(adj, feats)
        return feats


torch.manual_seed(0)
n = 6
adj = (torch.rand(n, n) > 0.5).float()
adj = ((adj + adj.t()) > 0).float()
feats = torch.randn(n, 5)
labels = torch.tensor([0, 1, 2, 0, 1, 2])
model = ARMA4NC(5, 4, 3, num_stacks=2, num_layers=1, activation=nn.ReLU(), dropout=0.5)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
logits = model(adj, feats)
train_loss = F.cross_entropy(logits, labels)
opt.zero_grad()
train_loss.backward()
opt.step()
print(train_loss.item())
