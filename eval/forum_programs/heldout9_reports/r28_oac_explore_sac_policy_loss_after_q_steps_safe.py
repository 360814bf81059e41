# source: https://github.com/microsoft/oac-explore/issues/27 (suggested fix: recompute q_new_actions after the Q steps)
# SAC update loop: critics step first, then the policy objective is rebuilt against the updated critics and backpropagated.
import torch
import torch.nn as nn
import torch.nn.functional as F


def mlp(i, o, h=32):
    return nn.Sequential(nn.Linear(i, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU(), nn.Linear(h, o))


class QF(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.net = mlp(obs_dim + act_dim, 1)

    def forward(self, obs, act):
        return self.net(torch.cat([obs, act], dim=1))


class TanhGaussianPolicy(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.net = mlp(obs_dim, 2 * act_dim)

    def forward(self, obs):
        mean, log_std = self.net(obs).chunk(2, dim=-1)
        std = log_std.clamp(-20, 2).exp()
        pre_tanh = mean + std * torch.randn_like(mean)
        action = torch.tanh(pre_tanh)
        log_prob = torch.distributions.Normal(mean, std).log_prob(pre_tanh) - torch.log(1 - action.pow(2) + 1e-6)
        return action, log_prob.sum(1, keepdim=True)


def train_step(policy, qf1, qf2, target_qf1, target_qf2, opts, batch, gamma=0.99, alpha=0.2):
    obs, actions, rewards, next_obs, terminals = batch
    policy_optimizer, qf1_optimizer, qf2_optimizer = opts
    new_obs_actions, log_pi = policy(obs)
    q1_pred, q2_pred = qf1(obs, actions), qf2(obs, actions)
    with torch.no_grad():
        new_next_actions, new_log_pi = policy(next_obs)
        target_q = torch.min(target_qf1(next_obs, new_next_actions),
                             target_qf2(next_obs, new_next_actions)) - alpha * new_log_pi
        q_target = rewards + (1. - terminals) * gamma * target_q
    qf1_loss, qf2_loss = F.mse_loss(q1_pred, q_target), F.mse_loss(q2_pred, q_target)
    qf1_optimizer.zero_grad(); qf1_loss.backward(retain_graph=True); qf1_optimizer.step()
    qf2_optimizer.zero_grad(); qf2_loss.backward(retain_graph=True); qf2_optimizer.step()
    q_new_actions = torch.min(qf1(obs, new_obs_actions), qf2(obs, new_obs_actions))
    policy_loss = (alpha * log_pi - q_new_actions).mean()
    policy_optimizer.zero_grad()
    policy_loss.backward(retain_graph=True)
    policy_optimizer.step()
    return qf1_loss.item(), policy_loss.item()


def main():
    torch.manual_seed(0)
    obs_dim, act_dim, B = 6, 2, 16
    policy, qf1, qf2 = TanhGaussianPolicy(obs_dim, act_dim), QF(obs_dim, act_dim), QF(obs_dim, act_dim)
    target_qf1, target_qf2 = QF(obs_dim, act_dim), QF(obs_dim, act_dim)
    opts = (torch.optim.Adam(policy.parameters(), 3e-4), torch.optim.Adam(qf1.parameters(), 3e-4),
            torch.optim.Adam(qf2.parameters(), 3e-4))
    for it in range(3):
        batch = (torch.randn(B, obs_dim), torch.rand(B, act_dim) * 2 - 1, torch.randn(B, 1),
                 torch.randn(B, obs_dim), torch.zeros(B, 1))
        print(it, train_step(policy, qf1, qf2, target_qf1, target_qf2, opts, batch))


if __name__ == "__main__":
    main()
