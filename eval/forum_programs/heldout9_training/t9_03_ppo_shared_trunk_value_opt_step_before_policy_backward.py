# source: PPO re-implementations with a shared torso and separate policy/value optimizers (forum "PPO inplace error after value step")
# PPO minibatch update where the value optimizer (which also owns the trunk) steps before the policy loss is backpropagated.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

torch.manual_seed(0)


class ActorCritic(nn.Module):
    def __init__(self, obs_dim=6, n_actions=3, hidden=32):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(),
                                   nn.Linear(hidden, hidden), nn.Tanh())
        self.pi = nn.Linear(hidden, n_actions)
        self.v = nn.Linear(hidden, 1)

    def forward(self, obs):
        h = self.trunk(obs)
        return self.pi(h), self.v(h).squeeze(-1)


net = ActorCritic()
policy_opt = torch.optim.Adam(list(net.trunk.parameters()) + list(net.pi.parameters()), lr=3e-4)
value_opt = torch.optim.Adam(list(net.trunk.parameters()) + list(net.v.parameters()), lr=1e-3)
cfg = {"clip": 0.2, "ent_coef": 0.01, "epochs": 2, "minibatch": 16}

N = 32
obs = torch.randn(N, 6)
with torch.no_grad():
    logits, values = net(obs)
    dist = Categorical(logits=logits)
    actions = dist.sample()
    old_logp = dist.log_prob(actions)
returns = values + torch.randn(N)
adv = returns - values
adv = (adv - adv.mean()) / (adv.std() + 1e-8)

for epoch in range(cfg["epochs"]):
    for idx in torch.randperm(N).split(cfg["minibatch"]):
        logits, v = net(obs[idx])
        dist = Categorical(logits=logits)
        ratio = torch.exp(dist.log_prob(actions[idx]) - old_logp[idx])
        surr = torch.min(ratio * adv[idx], ratio.clamp(1 - cfg["clip"], 1 + cfg["clip"]) * adv[idx])
        policy_loss = -surr.mean() - cfg["ent_coef"] * dist.entropy().mean()
        value_loss = F.mse_loss(v, returns[idx])

        value_opt.zero_grad()
        value_loss.backward(retain_graph=True)
        value_opt.step()  # culprit

        policy_opt.zero_grad()
        policy_loss.backward()
        policy_opt.step()
    print(epoch, policy_loss.item(), value_loss.item())
