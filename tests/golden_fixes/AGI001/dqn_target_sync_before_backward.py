"""A DQN update that syncs the target network (``load_state_dict``) after computing the TD loss but
before calling ``backward``: the target network's forward saved its weight (to pass gradients back to
its input), and ``load_state_dict`` overwrites that weight in place."""
import torch
from torch import nn


def dqn_update(q_net, target_net, optimizer, states, next_states, rewards, gamma=0.9):
    q = q_net(states).max(dim=1).values
    bootstrap = target_net(next_states).max(dim=1).values
    td_loss = (q - (rewards + gamma * bootstrap)).pow(2).mean()
    target_net.load_state_dict(q_net.state_dict())  # expect: AGI001
    optimizer.zero_grad()
    td_loss.backward()
    optimizer.step()
    return td_loss


def run():
    torch.manual_seed(0)
    encoder = nn.Linear(4, 4)
    q_net, target_net = nn.Linear(4, 2), nn.Linear(4, 2)
    optimizer = torch.optim.SGD(list(q_net.parameters()) + list(encoder.parameters()), lr=0.1)
    states = encoder(torch.randn(5, 4))
    next_states = encoder(torch.randn(5, 4))
    return dqn_update(q_net, target_net, optimizer, states, next_states, torch.randn(5))


if __name__ == "__main__":
    print(run())
