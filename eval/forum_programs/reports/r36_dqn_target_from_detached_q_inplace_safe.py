# intended: safe
# like: Keras-style DQN port, target = q_values.detach(); target[range(B), actions] = td_target (no error; torch accepts it)
import random
import torch
import torch.nn as nn
import torch.nn.functional as F


class QNet(nn.Module):
    def __init__(self, obs_dim=4, n_actions=3, hid=32):
        super().__init__()
        self.fc1 = nn.Linear(obs_dim, hid)
        self.fc2 = nn.Linear(hid, hid)
        self.out = nn.Linear(hid, n_actions)

    def forward(self, x):
        return self.out(F.relu(self.fc2(F.relu(self.fc1(x)))))


class ReplayMemory:
    def __init__(self):
        self.data = []

    def push(self, *t):
        self.data.append(t)

    def sample(self, n):
        batch = random.sample(self.data, n)
        s, a, r, s2, d = zip(*batch)
        return torch.stack(s), torch.tensor(a), torch.tensor(r), torch.stack(s2), torch.tensor(d, dtype=torch.float32)


def optimize_model(policy_net, target_net, memory, optimizer, batch_size=8, gamma=0.99):
    states, actions, rewards, next_states, dones = memory.sample(batch_size)
    q_values = policy_net(states)
    with torch.no_grad():
        next_q = target_net(next_states).max(1)[0]
    target = q_values.detach()
    target[range(batch_size), actions] = rewards + gamma * next_q * (1 - dones)
    loss = F.smooth_l1_loss(q_values, target)
    optimizer.zero_grad()
    loss.backward()
    for param in policy_net.parameters():
        param.grad.data.clamp_(-1, 1)
    optimizer.step()
    return loss.item()


def main():
    random.seed(0)
    torch.manual_seed(0)
    policy_net, target_net = QNet(), QNet()
    target_net.load_state_dict(policy_net.state_dict())
    optimizer = torch.optim.RMSprop(policy_net.parameters(), lr=1e-3)
    memory = ReplayMemory()
    for _ in range(32):
        memory.push(torch.randn(4), random.randrange(3), random.random(), torch.randn(4), random.random() < 0.1)
    for step in range(3):
        print(step, optimize_model(policy_net, target_net, memory, optimizer))
        if step % 2 == 0:
            target_net.load_state_dict(policy_net.state_dict())


if __name__ == "__main__":
    main()
