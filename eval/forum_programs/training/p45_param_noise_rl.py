# intended: AGI002
# Parameter-space noise exploration: perturb policy weights directly.
import torch
import torch.nn as nn

def perturb(policy, sigma):
    for p in policy.parameters():
        p += sigma * torch.randn_like(p)  # culprit

def main():
    torch.manual_seed(0)
    policy = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 2))
    opt = torch.optim.Adam(policy.parameters(), lr=1e-3)
    obs = torch.randn(10, 4)
    acts = torch.randint(0, 2, (10,))
    rets = torch.randn(10)
    for ep in range(2):
        logp = torch.log_softmax(policy(obs), -1).gather(1, acts[:, None]).squeeze(1)
        loss = -(logp * rets).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        perturb(policy, 0.01)
        print(ep, loss.item())

if __name__ == "__main__":
    main()
