# Source: kashif/firedup#11 ("ddpg torch error": "... output 0 of TBackward, is at version 2;
# expected version 1" on torch 1.6; "I reordered the two gradient update and it worked").
# Unit kind: file -- networks.py holds the Q network whose weights loss_pi saved; ddpg.py steps
# the Q optimizer before loss_pi.backward().
import torch

from ddpg import DDPG

torch.manual_seed(0)
agent = DDPG(3, 2)
o, a, r, o2, d = torch.randn(8, 3), torch.rand(8, 2), torch.randn(8), torch.randn(8, 3), torch.zeros(8)
agent.update(o, a, r, o2, d)
print("done")
