# source: discuss.pytorch.org thread "Actor-Critic: one of the variables needed for gradient computation has been modified by an inplace operation" (separate actor/critic optimizers, critic stepped before actor_loss.backward())
# advantage is not detached, so actor_loss.backward() reaches the critic graph whose Linear weight critic_opt.step() already updated in place
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
OBS, ACTIONS, HIDDEN, GAMMA = 4, 2, 16, 0.99


class Actor(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(OBS, HIDDEN)
        self.fc2 = nn.Linear(HIDDEN, ACTIONS)

    def forward(self, s):
        return F.softmax(self.fc2(F.relu(self.fc1(s))), dim=-1)


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(OBS, HIDDEN)
        self.fc2 = nn.Linear(HIDDEN, 1)

    def forward(self, s):
        return self.fc2(torch.tanh(self.fc1(s))).squeeze(-1)


def fake_env_step(state, action):
    next_state = state + 0.1 * torch.randn_like(state)
    reward = 1.0 if action == 0 else -0.5
    return next_state, reward


actor, critic = Actor(), Critic()
actor_opt = torch.optim.Adam(actor.parameters(), lr=1e-3)
critic_opt = torch.optim.Adam(critic.parameters(), lr=1e-3)

state = torch.randn(OBS)
for episode_step in range(5):
    probs = actor(state)
    dist = torch.distributions.Categorical(probs)
    action = dist.sample()
    next_state, reward = fake_env_step(state, action.item())

    value = critic(state)
    next_value = critic(next_state)
    advantage = reward + GAMMA * next_value - value

    critic_loss = advantage.pow(2)
    critic_opt.zero_grad()
    critic_loss.backward(retain_graph=True)
    critic_opt.step()  # culprit

    actor_loss = -dist.log_prob(action) * advantage
    actor_opt.zero_grad()
    actor_loss.backward()
    actor_opt.step()
    state = next_state
    print(episode_step, critic_loss.item(), actor_loss.item())
