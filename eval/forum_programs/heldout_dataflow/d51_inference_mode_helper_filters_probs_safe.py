# Generation helper under torch.inference_mode(): top-k filtering edits the softmax probabilities in
# place. Nothing is recorded for backward; training happens separately.
import torch
import torch.nn as nn
import torch.nn.functional as F


@torch.inference_mode()
def sample(model, ctx, k=2):
    probs = F.softmax(model(ctx), dim=-1)
    kth = probs.topk(k, dim=-1).values[:, -1:]
    probs[probs < kth] = 0.0
    probs.div_(probs.sum(-1, keepdim=True))
    return torch.multinomial(probs, 1).squeeze(1)


torch.manual_seed(0)
lm = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 5))
opt = torch.optim.SGD(lm.parameters(), lr=0.1)
ctx = torch.randn(3, 4)
tokens = sample(lm, ctx)
loss = F.cross_entropy(lm(ctx), tokens.clone())
opt.zero_grad()
loss.backward()
opt.step()
print(tokens.tolist(), loss.item())
