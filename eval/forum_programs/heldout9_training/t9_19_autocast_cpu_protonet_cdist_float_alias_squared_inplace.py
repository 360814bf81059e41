# source: prototypical-network episodes under torch.autocast('cpu', bfloat16); cdist runs in fp32 there, so .float() is a no-op alias
# ProtoNet episode with CPU bf16 autocast: distances are "cast" with .float() and squared in place before the loss.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Encoder(nn.Module):
    def __init__(self, in_dim=20, dim=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, 32), nn.ReLU(), nn.Linear(32, dim))

    def forward(self, x):
        return self.net(x)


def episode_loss(encoder, support, s_labels, query, q_labels, n_way):
    with torch.autocast("cpu", dtype=torch.bfloat16):
        emb_s = encoder(support)
        emb_q = encoder(query)
        protos = torch.stack([emb_s[s_labels == c].mean(0) for c in range(n_way)])
        dists = torch.cdist(emb_q, protos)
    dists = dists.float()
    dists.pow_(2)  # culprit
    return F.cross_entropy(-dists, q_labels)


encoder = Encoder()
opt = torch.optim.Adam(encoder.parameters(), lr=1e-3)
n_way, k_shot, n_query = 3, 4, 5
for episode in range(3):
    s_labels = torch.arange(n_way).repeat_interleave(k_shot)
    q_labels = torch.arange(n_way).repeat_interleave(n_query)
    support = torch.randn(n_way * k_shot, 20) + s_labels[:, None].float()
    query = torch.randn(n_way * n_query, 20) + q_labels[:, None].float()
    loss = episode_loss(encoder, support, s_labels, query, q_labels, n_way)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(episode, loss.item())
