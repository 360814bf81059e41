# Source: https://github.com/SamsungLabs/tqc_pytorch/issues/8 (SamsungLabs/tqc_pytorch#8: "Incompatible with PyTorch 2.0 - variable modified inplace", AddmmBackward0 in actor_loss = (alpha * log_pi - self.critic(state, new_action)...))
# Unit kind: cross-function (method)
# In the shape of the TQC trainer: the actor loss is built through the critic, the
# critic-update method steps the critic optimizer, then the actor-update method
# backpropagates the actor loss through the stale critic.
import torch
import torch.nn as nn

torch.manual_seed(0)


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, state, action):
        return self.net(torch.cat([state, action], dim=1))


class Trainer:
    def __init__(self, actor, critic):
        self.actor, self.critic = actor, critic
        self.actor_optimizer = torch.optim.Adam(actor.parameters(), lr=3e-4)
        self.critic_optimizer = torch.optim.Adam(critic.parameters(), lr=3e-4)

    def train(self, state, action, target):
        new_action = torch.tanh(self.actor(state))
        actor_loss = -self.critic(state, new_action).mean()
        critic_loss = (self.critic(state, action) - target).pow(2).mean()
        self._update_critic(critic_loss)
        self._update_actor(actor_loss)

    def _update_critic(self, loss):
        self.critic_optimizer.zero_grad()
        loss.backward()
        self.critic_optimizer.step()  # culprit

    def _update_actor(self, loss):
        self.actor_optimizer.zero_grad()
        loss.backward()
        self.actor_optimizer.step()


trainer = Trainer(nn.Linear(3, 2), Critic())
trainer.train(torch.randn(4, 3), torch.rand(4, 2), torch.randn(4, 1))
print("done")
