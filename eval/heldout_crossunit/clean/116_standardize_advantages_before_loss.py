# Source: https://www.yongfengli.tk/2018/04/13/inplace-operation-in-pytorch.html (in-place writes are
# fine when the value is not yet needed for gradient computation).
# Clean look-alike of hazard/025: the in-place standardisation runs before the product saves it.
# Unit kind: function.
import torch
import torch.nn as nn

torch.manual_seed(0)
policy = nn.Linear(4, 3)


def standardize_(adv):
    adv.sub_(adv.mean()).div_(adv.std() + 1e-8)
    return adv


obs = torch.randn(6, 4)
actions = torch.randint(0, 3, (6,))
returns = torch.randn(6)
values = torch.randn(6)
log_probs = torch.log_softmax(policy(obs), -1).gather(1, actions[:, None]).squeeze(1)
advantages = returns - values
standardize_(advantages)
policy_loss = -(log_probs * advantages).mean()
policy_loss.backward()
print("done")
