# intended: AGI001
# Recurrent A2C rollout with auto-reset: hidden states of finished envs are swapped for a
# learned initial state with torch.where, and the done mask is then OR-ed in place. where
# saved its condition, a view of `done`.
import torch
import torch.nn as nn
import torch.nn.functional as F


def main():
    torch.manual_seed(0)
    n_envs, T, obs_dim, n_act, H = 4, 6, 5, 3, 12
    cell = nn.GRUCell(obs_dim, H)
    h0 = nn.Parameter(torch.zeros(1, H))
    pi = nn.Linear(H, n_act)
    obs = torch.randn(T, n_envs, obs_dim)
    env_done = torch.rand(T, n_envs) < 0.3
    rewards = torch.randn(T, n_envs)
    h = h0.expand(n_envs, H)
    done = torch.zeros(n_envs, dtype=torch.bool)
    logps = []
    for t in range(T):
        h = torch.where(done.unsqueeze(1), h0.expand(n_envs, H), h)
        h = cell(obs[t], h)
        dist = torch.distributions.Categorical(logits=pi(h))
        logps.append(dist.log_prob(dist.sample()))
        done |= env_done[t]  # culprit
    loss = -(torch.stack(logps) * rewards).mean()
    loss.backward()
    print(loss.item(), h0.grad.norm().item())


if __name__ == "__main__":
    main()
