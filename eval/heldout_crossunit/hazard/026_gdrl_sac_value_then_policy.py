# Source: mimoralea/gdrl#13 (SAC optimize_model: with PyTorch >= 1.5 the policy loss, which was
# computed through the online value model, is backpropagated after the value optimizer stepped).
# Unit kind: method -- optimize_value() steps; optimize_model() calls it before the policy update.
import torch
import torch.nn as nn

torch.manual_seed(0)


class SAC:
    def __init__(self):
        self.policy_model = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 1), nn.Tanh())
        self.online_value_model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))
        self.policy_optimizer = torch.optim.Adam(self.policy_model.parameters(), lr=1e-3)
        self.value_optimizer = torch.optim.Adam(self.online_value_model.parameters(), lr=1e-3)

    def optimize_value(self, loss):
        self.value_optimizer.zero_grad()
        loss.backward()
        self.value_optimizer.step()  # culprit

    def optimize_model(self, states, actions, targets):
        current_actions = self.policy_model(states)
        current_q_sa = self.online_value_model(torch.cat([states, current_actions], 1))
        policy_loss = (-current_q_sa).mean()
        q_sa = self.online_value_model(torch.cat([states, actions], 1))
        value_loss = (q_sa - targets).pow(2).mul(0.5).mean()
        self.optimize_value(value_loss)
        self.policy_optimizer.zero_grad()
        policy_loss.backward()
        self.policy_optimizer.step()


SAC().optimize_model(torch.randn(5, 3), torch.randn(5, 1), torch.randn(5, 1))
print("done")
