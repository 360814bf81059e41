# source: https://github.com/ikostrikov/pytorch-a2c-ppo-acktr-gail/issues/193 ("Summary explanation of recurrent hidden states and masks?")
# Recurrent A2C: GRU policy with done-masks, rollout storage filled under no_grad, one actor-critic update.
import torch
import torch.nn as nn

torch.manual_seed(0)

NUM_PROCS, NUM_STEPS, OBS, N_ACT, HID = 4, 6, 5, 3, 16


class RecurrentPolicy(nn.Module):
    def __init__(self):
        super().__init__()
        self.base = nn.Sequential(nn.Linear(OBS, HID), nn.Tanh())
        self.gru = nn.GRU(HID, HID)
        self.critic_linear = nn.Linear(HID, 1)
        self.dist_linear = nn.Linear(HID, N_ACT)

    def _forward_gru(self, x, hxs, masks):
        if x.size(0) == hxs.size(0):
            x, hxs = self.gru(x.unsqueeze(0), (hxs * masks).unsqueeze(0))
            return x.squeeze(0), hxs.squeeze(0)
        N = hxs.size(0)
        T = int(x.size(0) / N)
        x, masks = x.view(T, N, x.size(1)), masks.view(T, N)
        has_zeros = ((masks[1:] == 0.0).any(dim=-1).nonzero().squeeze(-1) + 1).tolist()
        has_zeros = [0] + has_zeros + [T]
        hxs = hxs.unsqueeze(0)
        outputs = []
        for i in range(len(has_zeros) - 1):
            start_idx, end_idx = has_zeros[i], has_zeros[i + 1]
            rnn_scores, hxs = self.gru(x[start_idx:end_idx], hxs * masks[start_idx].view(1, -1, 1))
            outputs.append(rnn_scores)
        return torch.cat(outputs, dim=0).view(T * N, -1), hxs.squeeze(0)

    def forward(self, obs, hxs, masks):
        x, hxs = self._forward_gru(self.base(obs), hxs, masks)
        return self.critic_linear(x), torch.distributions.Categorical(logits=self.dist_linear(x)), hxs


class RolloutStorage:
    def __init__(self):
        self.obs = torch.zeros(NUM_STEPS + 1, NUM_PROCS, OBS)
        self.recurrent_hidden_states = torch.zeros(NUM_STEPS + 1, NUM_PROCS, HID)
        self.rewards = torch.zeros(NUM_STEPS, NUM_PROCS, 1)
        self.value_preds = torch.zeros(NUM_STEPS + 1, NUM_PROCS, 1)
        self.returns = torch.zeros(NUM_STEPS + 1, NUM_PROCS, 1)
        self.actions = torch.zeros(NUM_STEPS, NUM_PROCS, dtype=torch.long)
        self.masks = torch.ones(NUM_STEPS + 1, NUM_PROCS, 1)

    def insert(self, step, obs, hxs, action, value, reward, mask):
        self.obs[step + 1].copy_(obs)
        self.recurrent_hidden_states[step + 1].copy_(hxs)
        self.actions[step].copy_(action)
        self.value_preds[step].copy_(value)
        self.rewards[step].copy_(reward)
        self.masks[step + 1].copy_(mask)

    def compute_returns(self, next_value, gamma=0.99):
        self.returns[-1] = next_value
        for step in reversed(range(self.rewards.size(0))):
            self.returns[step] = self.returns[step + 1] * gamma * self.masks[step + 1] + self.rewards[step]


actor_critic, rollouts = RecurrentPolicy(), RolloutStorage()
optimizer = torch.optim.RMSprop(actor_critic.parameters(), lr=7e-4, eps=1e-5, alpha=0.99)
rollouts.obs[0].copy_(torch.randn(NUM_PROCS, OBS))

for update in range(2):
    for step in range(NUM_STEPS):
        with torch.no_grad():
            value, dist, hxs = actor_critic(rollouts.obs[step], rollouts.recurrent_hidden_states[step], rollouts.masks[step])
            action = dist.sample()
        obs, reward = torch.randn(NUM_PROCS, OBS), torch.randn(NUM_PROCS, 1)
        masks = (torch.rand(NUM_PROCS, 1) > 0.2).float()
        rollouts.insert(step, obs, hxs, action, value, reward, masks)
    with torch.no_grad():
        next_value, _, _ = actor_critic(rollouts.obs[-1], rollouts.recurrent_hidden_states[-1], rollouts.masks[-1])
    rollouts.compute_returns(next_value)

    values, dist, _ = actor_critic(rollouts.obs[:-1].view(-1, OBS), rollouts.recurrent_hidden_states[0],
                                   rollouts.masks[:-1].view(-1, 1))
    action_log_probs = dist.log_prob(rollouts.actions.view(-1)).view(NUM_STEPS, NUM_PROCS, 1)
    advantages = rollouts.returns[:-1] - values.view(NUM_STEPS, NUM_PROCS, 1)
    value_loss = advantages.pow(2).mean()
    action_loss = -(advantages.detach() * action_log_probs).mean()
    optimizer.zero_grad()
    (value_loss * 0.5 + action_loss - dist.entropy().mean() * 0.01).backward()
    nn.utils.clip_grad_norm_(actor_critic.parameters(), 0.5)
    optimizer.step()

    rollouts.obs[0].copy_(rollouts.obs[-1])
    rollouts.recurrent_hidden_states[0].copy_(rollouts.recurrent_hidden_states[-1])
    rollouts.masks[0].copy_(rollouts.masks[-1])
    print(f"update {update}: value_loss {value_loss.item():.4f} action_loss {action_loss.item():.4f}")
