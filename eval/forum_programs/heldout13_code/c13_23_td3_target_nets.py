# source: OpenAI Spinning Up td3.py (MLPActorCritic, ReplayBuffer, target policy smoothing, polyak averaging)
# TD3 updates on a toy replay buffer: twin critics, delayed actor updates, target networks.
import copy
import itertools
import torch
import torch.nn as nn


def mlp(sizes, activation=nn.ReLU, output_activation=nn.Identity):
    layers = []
    for j in range(len(sizes) - 1):
        act = activation if j < len(sizes) - 2 else output_activation
        layers += [nn.Linear(sizes[j], sizes[j + 1]), act()]
    return nn.Sequential(*layers)


class MLPActorCritic(nn.Module):
    def __init__(self, obs_dim, act_dim, act_limit=1.0, hidden=(32, 32)):
        super().__init__()
        self.act_limit = act_limit
        self.pi = mlp([obs_dim, *hidden, act_dim], output_activation=nn.Tanh)
        self.q1 = mlp([obs_dim + act_dim, *hidden, 1])
        self.q2 = mlp([obs_dim + act_dim, *hidden, 1])

    def act_fn(self, obs):
        return self.act_limit * self.pi(obs)

    def q(self, qnet, obs, act):
        return torch.squeeze(qnet(torch.cat([obs, act], dim=-1)), -1)


class ReplayBuffer:
    def __init__(self, obs_dim, act_dim, size):
        self.obs_buf = torch.zeros(size, obs_dim)
        self.obs2_buf = torch.zeros(size, obs_dim)
        self.act_buf = torch.zeros(size, act_dim)
        self.rew_buf, self.done_buf = torch.zeros(size), torch.zeros(size)
        self.ptr, self.size, self.max_size = 0, 0, size

    def store(self, obs, act, rew, next_obs, done):
        self.obs_buf[self.ptr], self.obs2_buf[self.ptr], self.act_buf[self.ptr] = obs, next_obs, act
        self.rew_buf[self.ptr], self.done_buf[self.ptr] = rew, done
        self.ptr = (self.ptr + 1) % self.max_size
        self.size = min(self.size + 1, self.max_size)

    def sample_batch(self, batch_size=16):
        idxs = torch.randint(0, self.size, (batch_size,))
        return dict(obs=self.obs_buf[idxs], obs2=self.obs2_buf[idxs], act=self.act_buf[idxs],
                    rew=self.rew_buf[idxs], done=self.done_buf[idxs])


torch.manual_seed(0)
obs_dim, act_dim, gamma, polyak = 5, 2, 0.99, 0.995
target_noise, noise_clip, policy_delay = 0.2, 0.5, 2
ac = MLPActorCritic(obs_dim, act_dim)
ac_targ = copy.deepcopy(ac)
for p in ac_targ.parameters():
    p.requires_grad = False
q_params = itertools.chain(ac.q1.parameters(), ac.q2.parameters())
pi_optimizer = torch.optim.Adam(ac.pi.parameters(), lr=1e-3)
q_optimizer = torch.optim.Adam(q_params, lr=1e-3)
buf = ReplayBuffer(obs_dim, act_dim, 64)
for _ in range(40):
    o = torch.randn(obs_dim)
    buf.store(o, torch.rand(act_dim) * 2 - 1, torch.randn(()), o + 0.1 * torch.randn(obs_dim), float(torch.rand(()) < 0.05))


def compute_loss_q(data):
    o, a, r, o2, d = data["obs"], data["act"], data["rew"], data["obs2"], data["done"]
    q1, q2 = ac.q(ac.q1, o, a), ac.q(ac.q2, o, a)
    with torch.no_grad():
        pi_targ = ac_targ.act_fn(o2)
        epsilon = torch.randn_like(pi_targ) * target_noise
        epsilon.clamp_(-noise_clip, noise_clip)
        a2 = (pi_targ + epsilon).clamp_(-ac.act_limit, ac.act_limit)
        q_pi_targ = torch.min(ac_targ.q(ac_targ.q1, o2, a2), ac_targ.q(ac_targ.q2, o2, a2))
        backup = r + gamma * (1 - d) * q_pi_targ
    return ((q1 - backup) ** 2).mean() + ((q2 - backup) ** 2).mean()


def update(data, timer):
    q_optimizer.zero_grad()
    loss_q = compute_loss_q(data)
    loss_q.backward()
    q_optimizer.step()
    if timer % policy_delay == 0:
        for p in itertools.chain(ac.q1.parameters(), ac.q2.parameters()):
            p.requires_grad = False
        pi_optimizer.zero_grad()
        loss_pi = -ac.q(ac.q1, data["obs"], ac.act_fn(data["obs"])).mean()
        loss_pi.backward()
        pi_optimizer.step()
        for p in itertools.chain(ac.q1.parameters(), ac.q2.parameters()):
            p.requires_grad = True
        with torch.no_grad():
            for p, p_targ in zip(ac.parameters(), ac_targ.parameters()):
                p_targ.data.mul_(polyak)
                p_targ.data.add_((1 - polyak) * p.data)
    return loss_q.item()


for j in range(4):
    print(j, round(update(buf.sample_batch(), j), 4))
