# source: pytorch/examples reinforcement_learning/reinforce.py finish_episode() (discounted returns standardised before building policy_loss)
# look-alike: returns is a plain data tensor (no grad); normalising it in place before it is multiplied with log_probs is safe
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

torch.manual_seed(0)
GAMMA, EPS = 0.99, 1e-8


class Policy(nn.Module):
    def __init__(self, obs=4, actions=2):
        super().__init__()
        self.affine1 = nn.Linear(obs, 32)
        self.dropout = nn.Dropout(p=0.2)
        self.affine2 = nn.Linear(32, actions)
        self.saved_log_probs = []
        self.rewards = []

    def forward(self, x):
        x = F.relu(self.dropout(self.affine1(x)))
        return F.softmax(self.affine2(x), dim=1)


def select_action(policy, state):
    probs = policy(state.unsqueeze(0))
    m = Categorical(probs)
    action = m.sample()
    policy.saved_log_probs.append(m.log_prob(action))
    return action.item()


def finish_episode(policy, optimizer):
    R, returns = 0.0, []
    for r in policy.rewards[::-1]:
        R = r + GAMMA * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    returns -= returns.mean()
    returns /= returns.std() + EPS
    policy_loss = [-log_prob * R for log_prob, R in zip(policy.saved_log_probs, returns)]
    optimizer.zero_grad()
    loss = torch.cat(policy_loss).sum()
    loss.backward()
    optimizer.step()
    del policy.rewards[:]
    del policy.saved_log_probs[:]
    return loss.item()


policy = Policy()
optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)
for episode in range(3):
    state = torch.randn(4)
    for t in range(6):
        action = select_action(policy, state)
        state = state + 0.1 * torch.randn(4)
        policy.rewards.append(1.0 if action == 1 else 0.0)
    print(episode, finish_episode(policy, optimizer))
