# Noisy-logits exploration: a lambda adds Gaussian noise in place to the linear layer's output.
# addmm does not save its result, so the write is harmless.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
policy = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 3))
add_noise = lambda t, s=0.1: t.add_(torch.randn_like(t) * s)
obs = torch.randn(8, 4)
logits = add_noise(policy(obs))
logp = F.log_softmax(logits, dim=-1)
actions = torch.randint(0, 3, (8,))
adv = torch.randn(8)
loss = -(logp.gather(1, actions[:, None]).squeeze(1) * adv).mean()
loss.backward()
print(policy[0].weight.grad.norm().item())
