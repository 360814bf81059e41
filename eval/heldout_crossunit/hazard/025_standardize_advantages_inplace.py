# Source: https://www.yongfengli.tk/2018/04/13/inplace-operation-in-pytorch.html (multiplication
# needs its inputs unchanged for backward), in the shape of an A2C update where the advantages
# multiplied into the policy loss are standardised in place for logging before backward.
# Unit kind: function -- standardize_() rewrites the advantage tensor the caller already used.
import torch
import torch.nn as nn

torch.manual_seed(0)
policy = nn.Linear(4, 3)


def standardize_(adv):
    adv.sub_(adv.mean()).div_(adv.std() + 1e-8)  # culprit
    return adv


obs = torch.randn(6, 4)
actions = torch.randint(0, 3, (6,))
returns = torch.randn(6)
values = torch.randn(6)
log_probs = torch.log_softmax(policy(obs), -1).gather(1, actions[:, None]).squeeze(1)
advantages = returns - values
policy_loss = -(log_probs * advantages).mean()
standardize_(advantages)
policy_loss.backward()
print("done")
