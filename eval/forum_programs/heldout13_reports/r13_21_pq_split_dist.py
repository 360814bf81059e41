# source: https://github.com/youngkyunJang/SPQ/issues/2 ("RuntimeError raised in function `pqDist_one` in Retrieval.py during evaluation")
# Self-supervised product quantization (SPQ-style): train soft codewords briefly, then evaluate retrieval with PQ distances.
import torch as T
import torch.nn as nn
import torch.nn.functional as F

T.manual_seed(0)

N_books, N_words, L_word = 4, 8, 6
feat_dim = N_books * L_word


class SPQNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, feat_dim))
        self.C = nn.Parameter(T.randn(N_words, feat_dim) * 0.1)   # codebooks, one slice per book

    def soft_quantize(self, x, tau=0.5):
        x_split = T.split(x, L_word, 1)
        C_split = T.split(self.C, L_word, 1)
        z = []
        for j in range(N_books):
            logits = -((x_split[j][:, None, :] - C_split[j][None]) ** 2).sum(-1) / tau
            z.append(F.softmax(logits, dim=-1) @ C_split[j])
        return T.cat(z, dim=1)

    def forward(self, x):
        f = self.encoder(x)
        return f, self.soft_quantize(f)


def Indexing(C, N_books, X):
    l1, l2 = C.shape
    L = l2 // N_books
    x = T.split(X, L, 1)
    y = T.split(C, L, 1)
    index = []
    for j in range(N_books):
        d = ((x[j][:, None, :] - y[j][None]) ** 2).sum(-1)
        index.append(d.argmin(dim=1))
    return T.stack(index, dim=1)


def pqDist_one(C, N_books, g_x, q_x):
    l1, l2 = C.shape
    L_word = int(l2 / N_books)
    D_C = T.zeros((l1, N_books), dtype=T.float32)

    q_x_split = T.split(q_x, L_word, 0)
    g_x_split = T.split(g_x, 1, 1)
    C_split = T.split(C, L_word, 1)
    D_C_split = T.split(D_C, 1, 1)

    for j in range(N_books):
        for k in range(l1):
            D_C_split[j][k] = T.norm(q_x_split[j] - C_split[j][k], 2)  # culprit
        if j == 0:
            dist = D_C_split[j][g_x_split[j]]
        else:
            dist = T.add(dist, D_C_split[j][g_x_split[j]])
    return T.squeeze(dist)


model = SPQNet()
opt = T.optim.Adam(model.parameters(), lr=1e-3)
for it in range(3):
    x = T.randn(16, 32)
    f1, z1 = model(x + 0.05 * T.randn_like(x))
    f2, z2 = model(x + 0.05 * T.randn_like(x))
    sim = F.normalize(z1, dim=1) @ F.normalize(f2, dim=1).t() / 0.5
    loss = F.cross_entropy(sim, T.arange(16))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"iter {it}: contrastive loss {loss.item():.4f}")

# retrieval evaluation
gallery_feats, _ = model(T.randn(20, 32))
query_feats, _ = model(T.randn(3, 32))
gallery_codes = Indexing(model.C, N_books, gallery_feats)
for q in range(query_feats.size(0)):
    dists = pqDist_one(model.C, N_books, gallery_codes, query_feats[q])
    print(f"query {q}: top-5 gallery items {dists.argsort()[:5].tolist()}")
