# source: Double DQN with Polyak-averaged target network (common Colab notebook layout)
# next_q[dones] = 0 and priorities computed in place under no_grad; soft update tp.mul_().add_() in no_grad after optimizer.step()
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

OBS_DIM, N_ACTIONS = 4, 3


class DuelingQNet(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.feature = nn.Sequential(nn.Linear(OBS_DIM, hidden), nn.ReLU())
        self.adv = nn.Linear(hidden, N_ACTIONS)
        self.val = nn.Linear(hidden, 1)

    def forward(self, x):
        h = self.feature(x)
        a = self.adv(h)
        return self.val(h) + a - a.mean(dim=1, keepdim=True)


@torch.no_grad()
def soft_update(target, source, tau):
    for tp, sp in zip(target.parameters(), source.parameters()):
        tp.mul_(1.0 - tau).add_(sp, alpha=tau)


def sample_batch(n):
    s = torch.randn(n, OBS_DIM)
    a = torch.randint(0, N_ACTIONS, (n,))
    r = torch.randn(n)
    s2 = torch.randn(n, OBS_DIM)
    done = torch.rand(n) < 0.1
    return s, a, r, s2, done


def train(steps=4, batch=32, gamma=0.99, tau=0.005):
    online = DuelingQNet()
    target = copy.deepcopy(online)
    for p in target.parameters():
        p.requires_grad_(False)
    opt = torch.optim.Adam(online.parameters(), lr=5e-4)
    for step in range(steps):
        s, a, r, s2, done = sample_batch(batch)
        q_sa = online(s).gather(1, a[:, None]).squeeze(1)
        with torch.no_grad():
            best = online(s2).argmax(dim=1, keepdim=True)
            next_q = target(s2).gather(1, best).squeeze(1)
            next_q[done] = 0.0
            td_target = r + gamma * next_q
            priorities = (q_sa.detach() - td_target).abs_().add_(1e-6)
        loss = F.smooth_l1_loss(q_sa, td_target)
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(online.parameters(), 10.0)
        opt.step()
        soft_update(target, online, tau)
        print(f"step {step}: loss={loss.item():.4f} max_prio={priorities.max().item():.3f}")


if __name__ == "__main__":
    train()
