# Source: https://github.com/reinforcement-learning-kr/lets-do-irl/issues/9 (reinforcement-learning-kr/lets-do-irl#9: the VAIL critic update in train_model.py)
# Unit kind: cross-file
# Look-alike of hazard/029: train_model.py recomputes the critic values for each
# minibatch, so every backward uses a graph built after the previous step.
import torch

from model import Critic
from train_model import train_critic

torch.manual_seed(0)

critic = Critic(4, 8)
critic_optim = torch.optim.Adam(critic.parameters(), lr=1e-3)
inputs, returns = torch.randn(8, 4), torch.randn(8, 1)
train_critic(critic, critic_optim, inputs, returns, batch_size=4)
print("done")
