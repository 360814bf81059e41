# source: prototypical-network episodes under torch.autocast('cpu', bfloat16); bf16 embeddings upcast before the distance math
# ProtoNet episode with CPU bf16 autocast: the bf16 Linear embeddings are upcast with .float() (a real copy) and scaled in place.
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


def episode_loss(encoder, support, s_labels, query, q_labels, n_way, temperature=4.0):
    with torch.autocast("cpu", dtype=torch.bfloat16):
        emb_s = encoder(support)
        emb_q = encoder(query)
    emb_s = emb_s.float()
    emb_q = emb_q.float()
    emb_s.div_(temperature ** 0.5)
    emb_q.div_(temperature ** 0.5)
    protos = torch.stack([emb_s[s_labels == c].mean(0) for c in range(n_way)])
    sq_dists = (emb_q[:, None, :] - protos[None]).pow(2).sum(-1)
    return F.cross_entropy(-sq_dists, q_labels)


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
