# Source: https://github.com/rail-berkeley/rlkit/pull/109 (the fix: optimize the actor before the critic, so the policy loss is back-propagated before the critic's weights change)
# Unit kind: cross-file
# Look-alike of hazard/005
import torch

from networks import Policy, QFunction
from optim_utils import apply_gradients

torch.manual_seed(0)
obs_dim, act_dim = 5, 2
policy, qf = Policy(obs_dim, act_dim), QFunction(obs_dim, act_dim)
policy_opt = torch.optim.Adam(policy.parameters(), lr=1e-3)
qf_opt = torch.optim.Adam(qf.parameters(), lr=1e-3)

obs = torch.randn(8, obs_dim)
actions = torch.randn(8, act_dim)
rewards = torch.randn(8, 1)

new_actions = policy(obs)
policy_loss = -qf(obs, new_actions).mean()
q_pred = qf(obs, actions)
qf_loss = (q_pred - rewards).pow(2).mean()

apply_gradients(policy_opt, policy_loss)
apply_gradients(qf_opt, qf_loss)
print("policy", float(policy_loss), "qf", float(qf_loss))
