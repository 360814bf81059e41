# Source: kashif/firedup#11 ("I reordered the two gradient update and it worked").
# Clean look-alike of hazard/058: the policy is updated before the Q network.
# Unit kind: file.
import torch

from ddpg import DDPG

torch.manual_seed(0)
agent = DDPG(3, 2)
o, a, r, o2, d = torch.randn(8, 3), torch.rand(8, 2), torch.randn(8), torch.randn(8, 3), torch.zeros(8)
agent.update(o, a, r, o2, d)
print("done")
