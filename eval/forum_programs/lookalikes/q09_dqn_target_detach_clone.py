# intended: safe
# DQN loss written the "full vector target" way: copy the online Q-values with
# detach().clone(), overwrite the taken actions' entries with the TD target, regress on all.
import torch
import torch.nn as nn
import torch.nn.functional as F


def main():
    torch.manual_seed(0)
    n_obs, n_act, gamma = 4, 3, 0.95
    qnet = nn.Sequential(nn.Linear(n_obs, 32), nn.ReLU(), nn.Linear(32, n_act))
    target_net = nn.Sequential(nn.Linear(n_obs, 32), nn.ReLU(), nn.Linear(32, n_act))
    target_net.load_state_dict(qnet.state_dict())
    opt = torch.optim.RMSprop(qnet.parameters(), lr=1e-3)
    for step in range(3):
        s = torch.randn(16, n_obs)
        a = torch.randint(0, n_act, (16,))
        r = torch.randn(16)
        s2 = torch.randn(16, n_obs)
        done = (torch.rand(16) < 0.1).float()
        q = qnet(s)
        target = q.detach().clone()
        with torch.no_grad():
            nxt = target_net(s2).max(1).values
        target[torch.arange(16), a] = r + gamma * nxt * (1 - done)
        loss = F.smooth_l1_loss(q, target)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, round(loss.item(), 5))


if __name__ == "__main__":
    main()
