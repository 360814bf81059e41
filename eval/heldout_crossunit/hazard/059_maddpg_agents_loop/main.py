# Source: philtabor/Multi-Agent-Deep-Deterministic-Policy-Gradients#2 ("critic_loss.backward(
# retain_graph=True) ... output 0 of TBackward, is at version 3; expected version 2" with torch
# 1.8; the joint action mu is computed once from every actor before the per-agent loop).
# Unit kind: file -- agent.py steps an actor optimizer; maddpg.py's next agent backpropagates
# through that actor's earlier graph.
import torch

from maddpg import MADDPG

torch.manual_seed(0)
m = MADDPG()
states = [torch.randn(4, 3) for _ in range(2)]
actions = [torch.softmax(torch.randn(4, 2), -1) for _ in range(2)]
m.learn(states, actions, torch.randn(4, 2))
print("done")
