# intended: AGI004
# Word-embedding model: I keep per-row handles (list(weight)) taken under no_grad for
# cheap logging, and use one of them to re-zero the padding row before each step.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
PAD = 0
emb = nn.Embedding(20, 6)
clf = nn.Linear(6, 2)
opt = torch.optim.SGD([*emb.parameters(), *clf.parameters()], lr=0.1)
with torch.no_grad():
    rows = list(emb.weight)
tokens = torch.randint(0, 20, (4, 7))
y = torch.tensor([0, 1, 1, 0])
for step in range(2):
    rows[PAD].zero_()  # culprit
    loss = F.cross_entropy(clf(emb(tokens).mean(1)), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, loss.item(), rows[3].norm().item())
