# intended: AGI004
# Prompt tuning: soft prompt rows are initialised from vocabulary embeddings.
# I grabbed handles to the rows under no_grad and filled them later in my setup code.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
vocab = nn.Embedding(50, 8)
vocab.requires_grad_(False)
prompt = nn.Parameter(torch.zeros(4, 8))
with torch.no_grad():
    rows = [prompt[i] for i in range(4)]
init_ids = [3, 17, 22, 41]
for row, tok in zip(rows, init_ids):
    row.copy_(vocab.weight[tok])  # culprit
head = nn.Linear(8, 2)
opt = torch.optim.Adam([prompt, *head.parameters()], lr=1e-2)
tokens = torch.randint(0, 50, (3, 5))
h = torch.cat([prompt.expand(3, 4, 8), vocab(tokens)], dim=1).mean(1)
loss = F.cross_entropy(head(h), torch.tensor([0, 1, 0]))
opt.zero_grad()
loss.backward()
opt.step()
print(loss.item())
