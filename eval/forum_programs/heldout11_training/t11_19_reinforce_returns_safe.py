# source: REINFORCE policy-gradient loop with discounted returns and baseline normalisation
# description: returns are written and normalised in place (no grad history); probs are clamped out of place
import torch
import torch.nn as nn

torch.manual_seed(0)
policy = nn.Sequential(nn.Linear(4, 32), nn.Tanh(), nn.Linear(32, 3))
opt = torch.optim.Adam(policy.parameters(), lr=1e-2)
gamma = 0.99

for episode in range(2):
    states = torch.randn(6, 4)
    probs = torch.softmax(policy(states), dim=-1).clamp(min=1e-6)
    dist = torch.distributions.Categorical(probs=probs)
    actions = dist.sample()
    rewards = torch.randn(6)
    returns = torch.zeros(6)
    running = 0.0
    for t in reversed(range(6)):
        running = rewards[t] + gamma * running
        returns[t] = running
    returns -= returns.mean()
    returns /= returns.std() + 1e-8
    loss = -(dist.log_prob(actions) * returns).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(episode, loss.item())
