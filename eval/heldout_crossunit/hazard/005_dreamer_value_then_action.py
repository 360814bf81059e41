# Source: cross32768/Dreamer_PyTorch#2 (value_optimizer.step() runs before
# action_loss.backward(); the lambda targets were computed through the value model).
# Unit kind: function -- update_value() and update_action() helpers.
import torch
import torch.nn as nn

torch.manual_seed(0)
action_model = nn.Sequential(nn.Linear(6, 16), nn.ELU(), nn.Linear(16, 2))
value_model = nn.Sequential(nn.Linear(6, 16), nn.ELU(), nn.Linear(16, 1))
action_optimizer = torch.optim.Adam(action_model.parameters(), lr=8e-5)
value_optimizer = torch.optim.Adam(value_model.parameters(), lr=8e-5)
transition = nn.Linear(8, 6)


def imagine(state, horizon=3):
    states = []
    for _ in range(horizon):
        a = torch.tanh(action_model(state))
        state = transition(torch.cat([state, a], 1))
        states.append(state)
    return torch.stack(states)


def update_value(loss):
    value_optimizer.zero_grad()
    loss.backward()
    value_optimizer.step()  # culprit


def update_action(loss):
    action_optimizer.zero_grad()
    loss.backward()
    action_optimizer.step()


flat = imagine(torch.randn(4, 6)).reshape(-1, 6)
lambda_target_values = value_model(flat)
imagined_values = value_model(flat.detach())
value_loss = 0.5 * (imagined_values - lambda_target_values.detach()).pow(2).mean()
action_loss = -1 * lambda_target_values.mean()
update_value(value_loss)
update_action(action_loss)
print("done")
