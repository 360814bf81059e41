# Source: thu-ml/tianshou#29 ("potential bug in the implementation of DDPG": after adding a Softmax
# layer to the Actor network, training raised "one of the variables needed for gradient
# computation has been modified by an inplace operation").
# Unit kind: file -- net.py ends the actor with Softmax (saves its output); policy.py adds
# exploration noise into that output in place.
import torch

from net import Actor
from policy import NoisyPolicy

torch.manual_seed(0)
policy = NoisyPolicy(Actor(4, 3))
critic = torch.nn.Linear(7, 1)
obs = torch.randn(5, 4)
q = critic(torch.cat([obs, policy.act(obs)], -1))
(-q.mean()).backward()
print("done")
