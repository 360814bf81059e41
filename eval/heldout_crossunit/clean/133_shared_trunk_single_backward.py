# Source: lweitkamp/option-critic-pytorch#5 (shared-architecture training): one combined loss is
# backpropagated, then both optimizers step.
# Clean look-alike of hazard/050.
# Unit kind: class.
import torch
import torch.nn as nn

torch.manual_seed(0)


class ActorCriticNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 16), nn.ReLU())
        self.pi = nn.Linear(16, 2)
        self.v = nn.Linear(16, 1)

    def forward(self, s):
        z = self.trunk(s)
        return torch.log_softmax(self.pi(z), -1), self.v(z)


class Agent:
    def __init__(self, net):
        self.net = net
        self.critic_opt = torch.optim.RMSprop(list(net.trunk.parameters()) + list(net.v.parameters()), lr=1e-3)
        self.actor_opt = torch.optim.RMSprop(net.pi.parameters(), lr=1e-3)

    def update(self, s, a, ret):
        logp, v = self.net(s)
        adv = (ret - v.squeeze(1)).detach()
        actor_loss = -(logp.gather(1, a[:, None]).squeeze(1) * adv).mean()
        critic_loss = (ret - v.squeeze(1)).pow(2).mean()
        self.critic_opt.zero_grad()
        self.actor_opt.zero_grad()
        (critic_loss + actor_loss).backward()
        self.critic_opt.step()
        self.actor_opt.step()


Agent(ActorCriticNet()).update(torch.randn(6, 4), torch.randint(0, 2, (6,)), torch.randn(6))
print("done")
