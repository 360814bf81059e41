# source: https://github.com/starry-sky6688/MADDPG/issues/27
# MADDPG agent.train(): maintainer fix - actor is updated first, critic update comes after actor_loss.backward()
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

N_AGENTS = 2
OBS_DIM = 6
ACT_DIM = 2
BATCH = 32
GAMMA = 0.95
TAU = 0.01


class Actor(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(OBS_DIM, 64)
        self.fc2 = nn.Linear(64, 64)
        self.action_out = nn.Linear(64, ACT_DIM)

    def forward(self, x):
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return torch.tanh(self.action_out(x))


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(N_AGENTS * (OBS_DIM + ACT_DIM), 64)
        self.fc2 = nn.Linear(64, 64)
        self.q_out = nn.Linear(64, 1)

    def forward(self, state, action):
        state = torch.cat(state, dim=1)
        action = torch.cat(action, dim=1)
        x = torch.cat([state, action], dim=1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.q_out(x)


class MADDPG:
    def __init__(self, agent_id):
        self.agent_id = agent_id
        self.actor_network = Actor()
        self.critic_network = Critic()
        self.actor_target_network = Actor()
        self.critic_target_network = Critic()
        self.actor_target_network.load_state_dict(self.actor_network.state_dict())
        self.critic_target_network.load_state_dict(self.critic_network.state_dict())
        self.actor_optim = torch.optim.Adam(self.actor_network.parameters(), lr=1e-4)
        self.critic_optim = torch.optim.Adam(self.critic_network.parameters(), lr=1e-3)

    def _soft_update_target_network(self):
        for target_param, param in zip(self.actor_target_network.parameters(), self.actor_network.parameters()):
            target_param.data.copy_((1 - TAU) * target_param.data + TAU * param.data)
        for target_param, param in zip(self.critic_target_network.parameters(), self.critic_network.parameters()):
            target_param.data.copy_((1 - TAU) * target_param.data + TAU * param.data)

    def train(self, transitions, other_agents):
        r = transitions['r_%d' % self.agent_id]
        o, u, o_next = [], [], []
        for agent_id in range(N_AGENTS):
            o.append(transitions['o_%d' % agent_id])
            u.append(transitions['u_%d' % agent_id])
            o_next.append(transitions['o_next_%d' % agent_id])

        u_next = []
        with torch.no_grad():
            index = 0
            for agent_id in range(N_AGENTS):
                if agent_id == self.agent_id:
                    u_next.append(self.actor_target_network(o_next[agent_id]))
                else:
                    u_next.append(other_agents[index].policy.actor_target_network(o_next[agent_id]))
                    index += 1
            q_next = self.critic_target_network(o_next, u_next).detach()
            target_q = (r.unsqueeze(1) + GAMMA * q_next).detach()

        q_value = self.critic_network(o, u)
        critic_loss = (target_q - q_value).pow(2).mean()

        # the actor loss: replace this agent's action by the current policy output
        u[self.agent_id] = self.actor_network(o[self.agent_id])
        actor_loss = -self.critic_network(o, u).mean()

        # repo order: the actor is optimized before the critic weights change
        self.actor_optim.zero_grad()
        actor_loss.backward()
        self.actor_optim.step()

        self.critic_optim.zero_grad()
        critic_loss.backward()
        self.critic_optim.step()

        self._soft_update_target_network()
        return critic_loss.item(), actor_loss.item()


class Agent:
    def __init__(self, agent_id):
        self.agent_id = agent_id
        self.policy = MADDPG(agent_id)

    def learn(self, transitions, other_agents):
        return self.policy.train(transitions, other_agents)


def sample_batch():
    batch = {}
    for i in range(N_AGENTS):
        batch['o_%d' % i] = torch.randn(BATCH, OBS_DIM)
        batch['u_%d' % i] = torch.rand(BATCH, ACT_DIM) * 2 - 1
        batch['o_next_%d' % i] = torch.randn(BATCH, OBS_DIM)
        batch['r_%d' % i] = torch.randn(BATCH)
    return batch


agents = [Agent(i) for i in range(N_AGENTS)]
for it in range(3):
    transitions = sample_batch()
    for agent in agents:
        other_agents = [a for a in agents if a is not agent]
        c, a = agent.learn(transitions, other_agents)
    print(f"iter {it}: critic_loss={c:.4f} actor_loss={a:.4f}")
