# Source: https://github.com/reinforcement-learning-kr/lets-do-irl/issues/9 (reinforcement-learning-kr/lets-do-irl#9 "RuntimeError while running VAIL": error detected in AddmmBackward from `values = critic(inputs)` in train_model.py's train_actor_critic, called from main.py)
# Unit kind: cross-file
# In the shape of train_actor_critic: the critic values are computed once for the
# whole batch (model.py's Critic saves its weights), and train_model.py's minibatch
# loop steps the critic optimizer between backward passes through that one graph.
import torch

from model import Critic
from train_model import train_critic

torch.manual_seed(0)

critic = Critic(4, 8)
critic_optim = torch.optim.Adam(critic.parameters(), lr=1e-3)
inputs, returns = torch.randn(8, 4), torch.randn(8, 1)
train_critic(critic, critic_optim, inputs, returns, batch_size=4)
print("done")
