# source: Double DQN (CleanRL dqn.py / SB3 style) with a tensor replay buffer and Polyak target updates
# DQN learner with preallocated replay buffer writes, no_grad targets clamped in place and in-place soft target updates.
import torch
import torch.nn as nn
import torch.nn.functional as F


class QNetwork(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=32):
        super().__init__()
        self.network = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(inplace=True),
                                     nn.Linear(hidden, hidden), nn.ReLU(inplace=True), nn.Linear(hidden, n_actions))

    def forward(self, x):
        return self.network(x)


class ReplayBuffer:
    def __init__(self, capacity, obs_dim):
        self.obs = torch.zeros(capacity, obs_dim)
        self.next_obs = torch.zeros(capacity, obs_dim)
        self.actions = torch.zeros(capacity, dtype=torch.long)
        self.rewards = torch.zeros(capacity)
        self.dones = torch.zeros(capacity)
        self.ptr, self.size, self.capacity = 0, 0, capacity

    def add(self, o, a, r, o2, d):
        self.obs[self.ptr] = o
        self.actions[self.ptr] = a
        self.rewards[self.ptr] = r
        self.next_obs[self.ptr] = o2
        self.dones[self.ptr] = d
        self.ptr = (self.ptr + 1) % self.capacity
        self.size = min(self.size + 1, self.capacity)

    def sample(self, batch_size, gen):
        idx = torch.randint(0, self.size, (batch_size,), generator=gen)
        return self.obs[idx], self.actions[idx], self.rewards[idx], self.next_obs[idx], self.dones[idx]


@torch.no_grad()
def soft_update(target, online, tau):
    for tp, p in zip(target.parameters(), online.parameters()):
        tp.mul_(1.0 - tau).add_(p, alpha=tau)


def dqn_loss(q_net, target_net, batch, gamma=0.99):
    obs, actions, rewards, next_obs, dones = batch
    with torch.no_grad():
        next_actions = q_net(next_obs).argmax(dim=1, keepdim=True)
        target_q = target_net(next_obs).gather(1, next_actions).squeeze(1)
        td_target = rewards + gamma * target_q * (1.0 - dones)
        td_target.clamp_(-10.0, 10.0)
    q = q_net(obs).gather(1, actions.unsqueeze(1)).squeeze(1)
    return F.smooth_l1_loss(q, td_target)


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    q_net, target_net = QNetwork(4, 3), QNetwork(4, 3)
    target_net.load_state_dict(q_net.state_dict())
    opt = torch.optim.Adam(q_net.parameters(), lr=2.5e-4)
    rb = ReplayBuffer(64, 4)
    obs = torch.randn(4)
    for step in range(40):
        with torch.no_grad():
            action = q_net(obs).argmax().item() if step > 5 else step % 3
        next_obs = obs + 0.1 * torch.randn(4)
        rb.add(obs, action, float(next_obs[0] > 0), next_obs, float(step % 10 == 9))
        obs = next_obs
        if step >= 16 and step % 4 == 0:
            loss = dqn_loss(q_net, target_net, rb.sample(8, gen))
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(q_net.parameters(), 10.0)
            opt.step()
            soft_update(target_net, q_net, tau=0.05)
            print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
