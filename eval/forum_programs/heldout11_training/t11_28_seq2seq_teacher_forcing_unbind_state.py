# source: seq2seq with a bidirectional GRU encoder and a teacher-forced GRUCell decoder
# description: the two direction states from h_n.unbind(0) are merged in place, modifying a multi-output view
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
V, E, H = 7, 6, 8
emb = nn.Embedding(V, E)
encoder = nn.GRU(E, H, batch_first=True, bidirectional=True)
decoder = nn.GRUCell(E, H)
out_proj = nn.Linear(H, V)
params = [*emb.parameters(), *encoder.parameters(), *decoder.parameters(), *out_proj.parameters()]
opt = torch.optim.Adam(params, lr=1e-3)

for it in range(2):
    src = torch.randint(0, V, (3, 5))
    tgt = torch.randint(0, V, (3, 4))
    _, h_n = encoder(emb(src))
    h_fwd, h_bwd = h_n.unbind(0)
    h_fwd.add_(h_bwd)  # culprit
    h = h_fwd
    loss = 0.0
    for t in range(tgt.size(1) - 1):
        h = decoder(emb(tgt[:, t]), h)
        loss = loss + F.cross_entropy(out_proj(h), tgt[:, t + 1])
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(it, loss.item())
