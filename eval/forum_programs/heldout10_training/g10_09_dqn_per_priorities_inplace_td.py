# source: DQN with prioritized experience replay, hobby implementation following a blog tutorial
# Huber loss on q_sa, then new priorities computed with q_sa.sub_(target).abs_() before loss.backward()
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

OBS_DIM, N_ACTIONS = 4, 2


class QNet(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(OBS_DIM, hidden), nn.ReLU(),
                                 nn.Linear(hidden, hidden), nn.ReLU(),
                                 nn.Linear(hidden, N_ACTIONS))

    def forward(self, x):
        return self.net(x)


class PrioritizedReplay:
    def __init__(self, capacity, alpha=0.6):
        self.capacity, self.alpha = capacity, alpha
        self.obs = torch.randn(capacity, OBS_DIM)
        self.act = torch.randint(0, N_ACTIONS, (capacity,))
        self.rew = torch.randn(capacity)
        self.next_obs = torch.randn(capacity, OBS_DIM)
        self.done = (torch.rand(capacity) < 0.05).float()
        self.priorities = torch.ones(capacity)

    def sample(self, n, beta=0.4):
        probs = self.priorities.pow(self.alpha)
        probs /= probs.sum()
        idx = torch.multinomial(probs, n, replacement=True)
        weights = (self.capacity * probs[idx]).pow(-beta)
        weights /= weights.max()
        return idx, self.obs[idx], self.act[idx], self.rew[idx], self.next_obs[idx], self.done[idx], weights

    def update_priorities(self, idx, prios):
        self.priorities[idx] = prios


def train(steps=3, batch=32, gamma=0.99):
    online = QNet()
    target_net = copy.deepcopy(online)
    opt = torch.optim.Adam(online.parameters(), lr=1e-3)
    buffer = PrioritizedReplay(256)
    for step in range(steps):
        idx, s, a, r, s2, d, w = buffer.sample(batch)
        q_sa = online(s).gather(1, a.unsqueeze(1)).squeeze(1)
        with torch.no_grad():
            target = r + gamma * (1 - d) * target_net(s2).max(1).values
        loss = (w * F.smooth_l1_loss(q_sa, target, reduction="none")).mean()

        td_error = q_sa.sub_(target).abs_()  # culprit
        buffer.update_priorities(idx, td_error.detach() + 1e-6)

        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step}: loss={loss.item():.4f}")


if __name__ == "__main__":
    train()
