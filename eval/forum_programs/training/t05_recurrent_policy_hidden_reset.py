# intended: AGI001
# Recurrent policy (GRUCell) over a batch of envs; when an env is done I zero its
# hidden state in place before the next step. Loss over the whole rollout at the end.
import torch
import torch.nn as nn


class RecurrentPolicy(nn.Module):
    def __init__(self, obs_dim=5, hid=16, n_act=3):
        super().__init__()
        self.cell = nn.GRUCell(obs_dim, hid)
        self.pi = nn.Linear(hid, n_act)

    def step(self, obs, h):
        h = self.cell(obs, h)
        return self.pi(h), h


def main():
    torch.manual_seed(0)
    n_envs, T = 4, 6
    policy = RecurrentPolicy()
    opt = torch.optim.RMSprop(policy.parameters(), lr=7e-4)
    obs_seq = torch.randn(T, n_envs, 5)
    dones = torch.rand(T, n_envs) < 0.3
    rewards = torch.randn(T, n_envs)
    h = torch.zeros(n_envs, 16)
    log_probs = []
    for t in range(T):
        logits, h = policy.step(obs_seq[t], h)
        a = torch.distributions.Categorical(logits=logits).sample()
        log_probs.append(torch.log_softmax(logits, -1).gather(1, a[:, None]).squeeze(1))
        h[dones[t]] = 0.0  # culprit
    loss = -(torch.stack(log_probs) * rewards).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
