# source: A2C with a shared trunk, critic and actor losses backpropagated separately
# description: opt.step() after the critic backward modifies shared trunk weights that the actor backward still needs
import torch
import torch.nn as nn

torch.manual_seed(0)
trunk = nn.Sequential(nn.Linear(4, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh())
actor = nn.Linear(32, 2)
critic = nn.Linear(32, 1)
params = list(trunk.parameters()) + list(actor.parameters()) + list(critic.parameters())
opt = torch.optim.Adam(params, lr=1e-3)

for it in range(2):
    s = torch.randn(16, 4)
    h = trunk(s)
    dist = torch.distributions.Categorical(logits=actor(h))
    a = dist.sample()
    v = critic(h).squeeze(-1)
    ret = torch.randn(16)
    adv = (ret - v).detach()
    critic_loss = (ret - v).pow(2).mean()
    actor_loss = -(dist.log_prob(a) * adv).mean() - 0.01 * dist.entropy().mean()

    opt.zero_grad()
    critic_loss.backward(retain_graph=True)
    opt.step()  # culprit
    actor_loss.backward()
    opt.step()
    print(it, critic_loss.item(), actor_loss.item())
