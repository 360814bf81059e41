# intended: safe
# A2C update: advantages computed from detached values, normalised in place.
import torch
import torch.nn as nn

def main():
    torch.manual_seed(0)
    policy = nn.Sequential(nn.Linear(4, 32), nn.Tanh(), nn.Linear(32, 2))
    value = nn.Sequential(nn.Linear(4, 32), nn.Tanh(), nn.Linear(32, 1))
    opt = torch.optim.Adam(list(policy.parameters()) + list(value.parameters()), lr=1e-3)
    obs = torch.randn(20, 4)
    actions = torch.randint(0, 2, (20,))
    returns = torch.randn(20)
    for epoch in range(3):
        dist = torch.distributions.Categorical(logits=policy(obs))
        logp = dist.log_prob(actions)
        values = value(obs).squeeze(-1)
        adv = returns - values.detach()
        adv -= adv.mean()
        adv /= adv.std() + 1e-8
        policy_loss = -(logp * adv).mean()
        value_loss = (returns - values).pow(2).mean()
        loss = policy_loss + 0.5 * value_loss - 0.01 * dist.entropy().mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(epoch, loss.item())

if __name__ == "__main__":
    main()
