# Source: https://github.com/cross32768/Dreamer_PyTorch/issues/2 (update of the action model fails after value_optimizer.step(); moving the step after action_loss.backward() solved it)
# Unit kind: cross-file
import torch

import models as mdl
from returns import lambda_target

torch.manual_seed(0)
state_dim, act_dim, horizon = 6, 2, 4
dynamics = mdl.Dynamics(state_dim, act_dim)
action_model = mdl.ActionModel(state_dim, act_dim)
value_model = mdl.ValueModel(state_dim)
action_optimizer = torch.optim.Adam(action_model.parameters(), lr=1e-3)
value_optimizer = torch.optim.Adam(value_model.parameters(), lr=1e-3)

for p in dynamics.parameters():
    p.requires_grad_(False)
state = torch.randn(8, state_dim)
states, rewards = [], []
for _ in range(horizon):
    state = dynamics(state, action_model(state))
    states.append(state)
    rewards.append(state.sum(dim=1, keepdim=True) * 0.1)
imagined_states = torch.stack(states)
imagined_rewards = torch.stack(rewards)
imagined_values = value_model(imagined_states)
lambda_target_values = lambda_target(imagined_rewards, imagined_values, gamma=0.9, lambda_=0.95)

value_loss = 0.5 * (imagined_values - lambda_target_values.detach()).pow(2).mean()
value_optimizer.zero_grad()
value_loss.backward(retain_graph=True)
value_optimizer.step()  # culprit

action_loss = -1 * lambda_target_values.mean()
action_optimizer.zero_grad()
action_loss.backward()
action_optimizer.step()
print("value", float(value_loss), "action", float(action_loss))
