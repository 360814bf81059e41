# source: https://github.com/microsoft/oac-explore/issues/27 (trainer/trainer.py: policy loss built before the Q-network steps)
# SAC update: q_new_actions/policy_loss are computed first, then the twin-Q optimizer steps, then policy_loss.backward().
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


def main():
    torch.manual_seed(0)
    obs_dim, act_dim, B, gamma, alpha = 6, 2, 16, 0.99, 0.2
    policy, qf1, qf2 = TanhGaussianPolicy(obs_dim, act_dim), QF(obs_dim, act_dim), QF(obs_dim, act_dim)
    target_qf1, target_qf2 = QF(obs_dim, act_dim), QF(obs_dim, act_dim)
    policy_optimizer = torch.optim.Adam(policy.parameters(), lr=3e-4)
    qf_optimizer = torch.optim.Adam(list(qf1.parameters()) + list(qf2.parameters()), lr=3e-4)
    obs, actions, next_obs = torch.randn(B, obs_dim), torch.rand(B, act_dim) * 2 - 1, torch.randn(B, obs_dim)
    rewards, terminals = torch.randn(B, 1), torch.zeros(B, 1)

    new_obs_actions, log_pi = policy(obs)
    q_new_actions = torch.min(qf1(obs, new_obs_actions), qf2(obs, new_obs_actions))
    policy_loss = (alpha * log_pi - q_new_actions).mean()

    q1_pred, q2_pred = qf1(obs, actions), qf2(obs, actions)
    new_next_actions, new_log_pi = policy(next_obs)
    target_q_values = torch.min(target_qf1(next_obs, new_next_actions),
                                target_qf2(next_obs, new_next_actions)) - alpha * new_log_pi
    q_target = rewards + (1. - terminals) * gamma * target_q_values
    qf1_loss = F.mse_loss(q1_pred, q_target.detach())
    qf2_loss = F.mse_loss(q2_pred, q_target.detach())

    qf_optimizer.zero_grad()
    (qf1_loss + qf2_loss).backward(retain_graph=True)
    qf_optimizer.step()  # culprit
    policy_optimizer.zero_grad()
    policy_loss.backward()
    policy_optimizer.step()
    print(qf1_loss.item(), qf2_loss.item(), policy_loss.item())


if __name__ == "__main__":
    main()
