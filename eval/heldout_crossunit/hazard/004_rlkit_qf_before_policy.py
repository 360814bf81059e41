# Source: rail-berkeley/rlkit PR #109 ("Optimize actor before the critic": the critic weights
# were changed before back-propagating the policy loss, an error since PyTorch 1.5).
# Unit kind: method -- the Q-function step is in its own trainer method.
import torch
import torch.nn as nn

torch.manual_seed(0)


class SACTrainer:
    def __init__(self):
        self.policy = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 1))
        self.qf = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))
        self.policy_optimizer = torch.optim.Adam(self.policy.parameters(), lr=3e-4)
        self.qf_optimizer = torch.optim.Adam(self.qf.parameters(), lr=3e-4)

    def _train_qf(self, qf_loss):
        self.qf_optimizer.zero_grad()
        qf_loss.backward()
        self.qf_optimizer.step()  # culprit

    def _train_policy(self, policy_loss):
        self.policy_optimizer.zero_grad()
        policy_loss.backward()
        self.policy_optimizer.step()

    def train_from_torch(self, obs, actions, target_q):
        new_actions = torch.tanh(self.policy(obs))
        q_new = self.qf(torch.cat([obs, new_actions], 1))
        policy_loss = -q_new.mean()
        q_pred = self.qf(torch.cat([obs, actions], 1))
        qf_loss = (q_pred - target_q).pow(2).mean()
        self._train_qf(qf_loss)
        self._train_policy(policy_loss)


SACTrainer().train_from_torch(torch.randn(6, 3), torch.randn(6, 1), torch.randn(6, 1))
print("done")
