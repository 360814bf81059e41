# source: Kaixhin/Rainbow model.py NoisyLinear (weight_epsilon.copy_(epsilon_out.ger(epsilon_in)) in reset_noise), called after optimiser.step() in agent.learn()
# look-alike: reset_noise() copies into the epsilon buffers that the forward mul saved, but only after backward has consumed them
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class NoisyLinear(nn.Module):
    def __init__(self, in_features, out_features, std_init=0.5):
        super().__init__()
        self.in_features, self.out_features = in_features, out_features
        self.weight_mu = nn.Parameter(torch.empty(out_features, in_features))
        self.weight_sigma = nn.Parameter(torch.empty(out_features, in_features))
        self.register_buffer("weight_epsilon", torch.empty(out_features, in_features))
        self.bias_mu = nn.Parameter(torch.empty(out_features))
        self.bias_sigma = nn.Parameter(torch.empty(out_features))
        self.register_buffer("bias_epsilon", torch.empty(out_features))
        mu_range = 1 / math.sqrt(in_features)
        self.weight_mu.data.uniform_(-mu_range, mu_range)
        self.weight_sigma.data.fill_(std_init / math.sqrt(in_features))
        self.bias_mu.data.uniform_(-mu_range, mu_range)
        self.bias_sigma.data.fill_(std_init / math.sqrt(out_features))
        self.reset_noise()

    @staticmethod
    def _scale_noise(size):
        x = torch.randn(size)
        return x.sign().mul_(x.abs().sqrt_())

    def reset_noise(self):
        epsilon_in = self._scale_noise(self.in_features)
        epsilon_out = self._scale_noise(self.out_features)
        self.weight_epsilon.copy_(epsilon_out.ger(epsilon_in))
        self.bias_epsilon.copy_(epsilon_out)

    def forward(self, x):
        return F.linear(x, self.weight_mu + self.weight_sigma * self.weight_epsilon,
                        self.bias_mu + self.bias_sigma * self.bias_epsilon)


class NoisyDQN(nn.Module):
    def __init__(self, obs=4, actions=3):
        super().__init__()
        self.fc = nn.Linear(obs, 16)
        self.fc_h, self.fc_z = NoisyLinear(16, 16), NoisyLinear(16, actions)

    def forward(self, x):
        return self.fc_z(F.relu(self.fc_h(F.relu(self.fc(x)))))

    def reset_noise(self):
        for m in (self.fc_h, self.fc_z):
            m.reset_noise()


online = NoisyDQN()
opt = torch.optim.Adam(online.parameters(), lr=1e-3)
for step in range(3):
    s, a, r = torch.randn(5, 4), torch.randint(0, 3, (5,)), torch.randn(5)
    q = online(s).gather(1, a.unsqueeze(1)).squeeze(1)
    loss = F.smooth_l1_loss(q, r)
    opt.zero_grad()
    loss.backward()
    opt.step()
    online.reset_noise()
    print(step, loss.item())
