import torch.nn as nn


class ImplicitNetwork(nn.Module):
    def __init__(self, d_in, n_candidates, d_feat):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(d_in, 16), nn.Softplus(beta=100), nn.Linear(16, n_candidates * (1 + d_feat)))
        self.n_candidates, self.d_feat = n_candidates, d_feat

    def forward(self, pts):
        out = self.layers(pts).view(pts.size(0), self.n_candidates, 1 + self.d_feat)
        sdf, feat = out.split([1, self.d_feat], dim=-1)
        return sdf, feat
