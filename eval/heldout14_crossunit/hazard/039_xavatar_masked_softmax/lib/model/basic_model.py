from .helpers import masked_softmax
from .network import ImplicitNetwork


class BasicModel:
    def __init__(self, d_in=3, n_candidates=4, d_feat=2):
        self.network = ImplicitNetwork(d_in, n_candidates, d_feat)

    def forward(self, pts, valid):
        sdf, feat = self.network(pts)
        shape_pd = sdf.reshape(pts.size(0), -1)
        weights = masked_softmax(shape_pd, valid, dim=-1)
        return (weights.unsqueeze(-1) * feat).sum(1)
