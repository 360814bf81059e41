# source: https://github.com/starry-sky6688/MADDPG/issues/27 ("大佬请问这边当我先更新critic时再更新actor（论文是这样的）这个会报因为inplace操作导致梯度的更新失败。。真的改不出来了")
# One MADDPG agent update: centralised critic on all agents' observations/actions, decentralised actor.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

N_AGENTS, OBS, ACT, BATCH = 3, 6, 2, 32


class Actor(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc2, self.action_out = nn.Linear(OBS, 64), nn.Linear(64, 64), nn.Linear(64, ACT)

    def forward(self, x):
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return torch.tanh(self.action_out(x))


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(N_AGENTS * (OBS + ACT), 64)
        self.fc2, self.q_out = nn.Linear(64, 64), nn.Linear(64, 1)

    def forward(self, state, action):
        x = torch.cat(state + action, dim=1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.q_out(x)


class MADDPG:
    def __init__(self, agent_id, gamma=0.95, tau=0.01):
        self.agent_id, self.gamma, self.tau = agent_id, gamma, tau
        self.actor_network, self.critic_network = Actor(), Critic()
        self.actor_target_network, self.critic_target_network = Actor(), Critic()
        self.actor_target_network.load_state_dict(self.actor_network.state_dict())
        self.critic_target_network.load_state_dict(self.critic_network.state_dict())
        self.actor_optim = torch.optim.Adam(self.actor_network.parameters(), lr=1e-4)
        self.critic_optim = torch.optim.Adam(self.critic_network.parameters(), lr=1e-3)

    def _soft_update_target_network(self):
        for tgt, src in [(self.actor_target_network, self.actor_network), (self.critic_target_network, self.critic_network)]:
            for target_param, param in zip(tgt.parameters(), src.parameters()):
                target_param.data.copy_((1 - self.tau) * target_param.data + self.tau * param.data)

    def train(self, transitions, other_agents):
        r = transitions['r_%d' % self.agent_id]
        o = [transitions['o_%d' % i] for i in range(N_AGENTS)]
        u = [transitions['u_%d' % i] for i in range(N_AGENTS)]
        o_next = [transitions['o_next_%d' % i] for i in range(N_AGENTS)]

        with torch.no_grad():
            u_next, index = [], 0
            for agent_id in range(N_AGENTS):
                if agent_id == self.agent_id:
                    u_next.append(self.actor_target_network(o_next[agent_id]))
                else:
                    u_next.append(other_agents[index].actor_target_network(o_next[agent_id]))
                    index += 1
            q_next = self.critic_target_network(o_next, u_next).detach()
            target_q = (r.unsqueeze(1) + self.gamma * q_next).detach()

        q_value = self.critic_network(o, u)
        critic_loss = (target_q - q_value).pow(2).mean()

        # the actor loss: re-select this agent's action with the current actor
        u[self.agent_id] = self.actor_network(o[self.agent_id])
        actor_loss = - self.critic_network(o, u).mean()

        self.critic_optim.zero_grad()
        critic_loss.backward()
        self.critic_optim.step()  # culprit

        self.actor_optim.zero_grad()
        actor_loss.backward()
        self.actor_optim.step()

        self._soft_update_target_network()
        return critic_loss.item(), actor_loss.item()


agents = [MADDPG(i) for i in range(N_AGENTS)]
for step in range(2):
    transitions = {}
    for i in range(N_AGENTS):
        transitions['o_%d' % i] = torch.randn(BATCH, OBS)
        transitions['u_%d' % i] = torch.rand(BATCH, ACT) * 2 - 1
        transitions['r_%d' % i] = torch.randn(BATCH)
        transitions['o_next_%d' % i] = torch.randn(BATCH, OBS)
    for agent in agents:
        other_agents = [a for a in agents if a is not agent]
        c, a = agent.train(transitions, other_agents)
        print(f"step {step} agent {agent.agent_id}: critic {c:.4f} actor {a:.4f}")
