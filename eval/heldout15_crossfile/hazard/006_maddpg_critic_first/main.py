# Source: https://github.com/starry-sky6688/MADDPG/issues/27 (updating the critic before the actor raises the in-place error: actor_loss used the critic network, which critic_optim.step() then changed)
# Unit kind: cross-file
import torch

from agent.maddpg import MADDPG

torch.manual_seed(0)
agent = MADDPG(obs_dim=6, act_dim=2)
batch = {
    "o": torch.randn(16, 6), "u": torch.randn(16, 2), "r": torch.randn(16, 1),
    "o_next": torch.randn(16, 6),
}
print(agent.train(batch))
