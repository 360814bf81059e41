# source: MoCo-style contrastive training with a FIFO queue of negative keys
# description: new keys are written into the queue slice before loss.backward(), but q @ queue saved the queue
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
B, D, K, T, m = 4, 8, 16, 0.07, 0.99
enc_q = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, D))
enc_k = copy.deepcopy(enc_q)
for p in enc_k.parameters():
    p.requires_grad_(False)
opt = torch.optim.SGD(enc_q.parameters(), lr=0.03)
queue = F.normalize(torch.randn(D, K), dim=0)
ptr = 0

for it in range(2):
    x = torch.randn(B, 10)
    q = F.normalize(enc_q(x + 0.1 * torch.randn_like(x)), dim=1)
    with torch.no_grad():
        k = F.normalize(enc_k(x + 0.1 * torch.randn_like(x)), dim=1)
    l_pos = (q * k).sum(dim=1, keepdim=True)
    l_neg = q @ queue
    logits = torch.cat([l_pos, l_neg], dim=1) / T
    loss = F.cross_entropy(logits, torch.zeros(B, dtype=torch.long))
    queue[:, ptr:ptr + B] = k.T  # culprit
    ptr = (ptr + B) % K
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        for pk, pq in zip(enc_k.parameters(), enc_q.parameters()):
            pk.mul_(m).add_(pq, alpha=1 - m)
    print(it, loss.item())
