# intended: safe
# Dueling DQN head: advantage centred in place (Linear output, nothing saved it),
# TD targets built in place under no_grad, soft target update with lerp_.
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F


class DuelingQ(nn.Module):
    def __init__(self, obs=4, n_act=3):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs, 32), nn.ReLU())
        self.value = nn.Linear(32, 1)
        self.adv = nn.Linear(32, n_act)

    def forward(self, s):
        h = self.body(s)
        a = self.adv(h)
        a -= a.mean(dim=1, keepdim=True)
        return self.value(h) + a


def main():
    torch.manual_seed(0)
    q, q_targ = DuelingQ(), None
    q_targ = copy.deepcopy(q).requires_grad_(False)
    opt = torch.optim.Adam(q.parameters(), lr=1e-3)
    s, a, r = torch.randn(16, 4), torch.randint(0, 3, (16,)), torch.randn(16)
    s2, done = torch.randn(16, 4), (torch.rand(16) < 0.2).float()
    for step in range(3):
        q_sa = q(s).gather(1, a[:, None]).squeeze(1)
        with torch.no_grad():
            target = q_targ(s2).max(dim=1).values
            target.mul_(0.99 * (1 - done)).add_(r)
        loss = F.smooth_l1_loss(q_sa, target)
        opt.zero_grad()
        loss.backward()
        opt.step()
        with torch.no_grad():
            for pt, p in zip(q_targ.parameters(), q.parameters()):
                pt.lerp_(p, 0.05)
        print(step, loss.item())


if __name__ == "__main__":
    main()
