# source: recurrent RL policy (A2C/PPO GRU core, e.g. rl-baselines style) unrolled by hand
# per-step states copied into an output buffer, and the live hidden state reset in place with masked_fill_ at episode ends
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class PlainSGD:
    """Minimal SGD(+momentum) so the script does not pay torch.optim's start-up cost."""

    def __init__(self, params, lr=0.01, momentum=0.0):
        self.params = list(params)
        self.lr, self.momentum = lr, momentum
        self.bufs = [None] * len(self.params)

    def zero_grad(self):
        for p in self.params:
            p.grad = None

    @torch.no_grad()
    def step(self):
        for i, p in enumerate(self.params):
            if p.grad is None:
                continue
            d = p.grad
            if self.momentum:
                if self.bufs[i] is None:
                    self.bufs[i] = d.clone()
                else:
                    self.bufs[i].mul_(self.momentum).add_(d)
                d = self.bufs[i]
            p.add_(d, alpha=-self.lr)


class GRUCore(nn.Module):
    def __init__(self, inp, hid):
        super().__init__()
        self.w_x = nn.Linear(inp, 3 * hid)
        self.w_h = nn.Linear(hid, 3 * hid)

    def forward(self, x, h):
        xr, xz, xn = self.w_x(x).chunk(3, -1)
        hr, hz, hn = self.w_h(h).chunk(3, -1)
        r = torch.sigmoid(xr + hr)
        z = torch.sigmoid(xz + hz)
        n = torch.tanh(xn + r * hn)
        return (1 - z) * n + z * h


class RecurrentActorCritic(nn.Module):
    def __init__(self, obs_dim=8, hid=16, n_actions=3):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(obs_dim, hid), nn.ReLU(inplace=True))
        self.core = GRUCore(hid, hid)
        self.pi = nn.Linear(hid, n_actions)
        self.v = nn.Linear(hid, 1)
        self.hid = hid

    def unroll(self, obs, dones, h):
        T, B, _ = obs.shape
        feats = self.enc(obs)
        outputs = feats.new_zeros(T, B, self.hid)
        for t in range(T):
            h = self.core(feats[t], h)
            outputs[t] = h
            # episode finished: next step starts from a zero state
            h.masked_fill_(dones[t][:, None], 0.0)
        return outputs, h

    def forward(self, obs, dones, h):
        outputs, h = self.unroll(obs, dones, h)
        return self.pi(outputs), self.v(outputs).squeeze(-1), h


def a2c_loss(model, obs, dones, actions, returns):
    h0 = torch.zeros(obs.size(1), model.hid)
    logits, values, _ = model(obs, dones, h0)
    logp = F.log_softmax(logits, -1).gather(-1, actions[..., None]).squeeze(-1)
    adv = (returns - values).detach()
    entropy = -(F.softmax(logits, -1) * F.log_softmax(logits, -1)).sum(-1).mean()
    return -(logp * adv).mean() + 0.5 * F.mse_loss(values, returns) - 0.01 * entropy


if __name__ == "__main__":
    T, B = 6, 4
    model = RecurrentActorCritic()
    opt = PlainSGD(model.parameters(), lr=0.0007)
    obs = torch.randn(T, B, 8)
    dones = torch.rand(T, B) < 0.2
    actions = torch.randint(0, 3, (T, B))
    returns = torch.randn(T, B)
    loss = a2c_loss(model, obs, dones, actions, returns)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("loss", loss.item())
