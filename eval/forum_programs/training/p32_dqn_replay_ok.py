# intended: safe
# DQN with a tensor replay buffer written in place and target under no_grad.
import torch
import torch.nn as nn

class Replay:
    def __init__(self, cap, obs_dim):
        self.s = torch.zeros(cap, obs_dim)
        self.a = torch.zeros(cap, dtype=torch.long)
        self.r = torch.zeros(cap)
        self.s2 = torch.zeros(cap, obs_dim)
        self.i, self.n, self.cap = 0, 0, cap
    def add(self, s, a, r, s2):
        self.s[self.i] = s
        self.a[self.i] = a
        self.r[self.i] = r
        self.s2[self.i] = s2
        self.i = (self.i + 1) % self.cap
        self.n = min(self.n + 1, self.cap)
    def sample(self, k):
        idx = torch.randint(0, self.n, (k,))
        return self.s[idx], self.a[idx], self.r[idx], self.s2[idx]

def main():
    torch.manual_seed(0)
    q_net = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 2))
    target = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 2))
    target.load_state_dict(q_net.state_dict())
    opt = torch.optim.Adam(q_net.parameters(), lr=1e-3)
    buf = Replay(100, 4)
    s = torch.randn(4)
    for t in range(40):
        with torch.no_grad():
            a = q_net(s).argmax().item() if t % 3 else t % 2
        s2 = s + 0.1 * torch.randn(4)
        buf.add(s, a, float(s2.sum()), s2)
        s = s2
        if t >= 8:
            bs, ba, br, bs2 = buf.sample(8)
            q = q_net(bs).gather(1, ba[:, None]).squeeze(1)
            with torch.no_grad():
                y = br + 0.99 * target(bs2).max(1).values
            loss = (q - y).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        if t % 10 == 0:
            target.load_state_dict(q_net.state_dict())
    print(loss.item())

if __name__ == "__main__":
    main()
