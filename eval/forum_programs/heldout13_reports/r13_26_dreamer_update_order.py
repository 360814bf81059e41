# source: https://github.com/cross32768/Dreamer_PyTorch/issues/2 ("Bug happened during the update of action model")
# Dreamer behaviour learning: imagine latent rollouts with the actor, train it on lambda-returns, then the value model.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils import clip_grad_norm_

torch.manual_seed(0)

STATE, ACT, HORIZON = 16, 3, 5


def mlp(i, o, h=32):
    return nn.Sequential(nn.Linear(i, h), nn.ELU(), nn.Linear(h, h), nn.ELU(), nn.Linear(h, o))


transition = mlp(STATE + ACT, STATE)          # learned latent dynamics (trained elsewhere)
reward_model = mlp(STATE, 1)
value_model = mlp(STATE, 1)
action_model = nn.Sequential(mlp(STATE, ACT), nn.Tanh())
for p in list(transition.parameters()) + list(reward_model.parameters()):
    p.requires_grad_(False)

action_optimizer = torch.optim.Adam(action_model.parameters(), lr=8e-5)
value_optimizer = torch.optim.Adam(value_model.parameters(), lr=8e-5)


def lambda_target(rewards, values, gamma=0.99, lambda_=0.95):
    V_lambda = torch.zeros_like(rewards)
    last = values[-1]
    for t in reversed(range(rewards.shape[0])):
        last = rewards[t] + gamma * ((1 - lambda_) * values[t] + lambda_ * last)
        V_lambda[t] = last
    return V_lambda


for update_step in range(2):
    start_states = torch.randn(8, STATE)
    state = start_states
    imagined = []
    for t in range(HORIZON):
        action = action_model(state)
        state = state + transition(torch.cat([state, action], dim=1))
        imagined.append(state)
    flatten_states = torch.stack(imagined)                      # (H, B, STATE)
    imagined_rewards = reward_model(flatten_states)
    imagined_values = value_model(flatten_states)
    lambda_target_values = lambda_target(imagined_rewards, imagined_values)

    # update action model (multiply -1 for gradient ascent)
    action_loss = -1 * lambda_target_values.mean()
    action_optimizer.zero_grad()
    action_loss.backward()
    clip_grad_norm_(action_model.parameters(), 100)
    action_optimizer.step()

    # update value model on detached imagined states
    value_loss = 0.5 * F.mse_loss(value_model(flatten_states.detach()), lambda_target_values.detach())
    value_optimizer.zero_grad()
    value_loss.backward()
    clip_grad_norm_(value_model.parameters(), 100)
    value_optimizer.step()
    print(f"update {update_step}: action_loss {action_loss.item():.4f} value_loss {value_loss.item():.4f}")
