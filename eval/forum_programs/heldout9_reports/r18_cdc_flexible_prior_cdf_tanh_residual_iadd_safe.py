# source: https://github.com/buggyyang/CDC_compression/blob/main/modules/network_components.py (FlexiblePrior.cdf, Balle et al. 2018)
# Factorized entropy model: each chain step does x += tanh(a) * tanh(x) on the affine output; rate loss is backpropagated.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class PriorFunction(nn.Module):
    def __init__(self, parallel_dims, in_features, out_features, scale):
        super().__init__()
        self.weight = nn.Parameter(torch.full((parallel_dims, 1, 1, in_features, out_features), float(scale)))
        self.bias = nn.Parameter(torch.empty(parallel_dims, 1, 1, 1, out_features).uniform_(-0.5, 0.5))

    def forward(self, input):
        return torch.matmul(input, F.softplus(self.weight)) + self.bias


class FlexiblePrior(nn.Module):
    def __init__(self, channels=4, dims=(3, 3, 3), init_scale=10.0):
        super().__init__()
        dims = [1] + list(dims) + [1]
        self.chain_len = len(dims) - 1
        scale = init_scale ** (1 / self.chain_len)
        self.affine = nn.ModuleList([PriorFunction(channels, dims[i], dims[i + 1],
                                                   np.log(np.expm1(1 / scale / dims[i + 1])))
                                     for i in range(self.chain_len)])
        self.a = nn.ParameterList([nn.Parameter(torch.zeros(channels, 1, 1, 1, dims[i + 1]))
                                   for i in range(self.chain_len - 1)])

    def cdf(self, x):
        x = x.transpose(0, 1).unsqueeze(-1)  # C, N, H, W, 1
        for i in range(self.chain_len - 1):
            x = self.affine[i](x)
            x += torch.tanh(self.a[i]) * torch.tanh(x)
        return self.affine[-1](x).squeeze(-1).transpose(0, 1)

    def likelihood(self, x):
        lower = self.cdf(x - 0.5)
        upper = self.cdf(x + 0.5)
        sign = -torch.sign(lower + upper).detach()
        return (torch.sigmoid(sign * upper) - torch.sigmoid(sign * lower)).abs().clamp(min=1e-9)


def main():
    torch.manual_seed(0)
    encoder = nn.Conv2d(3, 4, 3, stride=2, padding=1)
    decoder = nn.ConvTranspose2d(4, 3, 4, stride=2, padding=1)
    prior = FlexiblePrior()
    opt = torch.optim.Adam(list(encoder.parameters()) + list(decoder.parameters()) + list(prior.parameters()), 1e-3)
    img = torch.rand(2, 3, 8, 8)
    for step in range(2):
        opt.zero_grad()
        y = encoder(img)
        y_tilde = y + torch.empty_like(y).uniform_(-0.5, 0.5)
        bpp = -torch.log2(prior.likelihood(y_tilde)).sum() / (2 * 8 * 8)
        loss = F.mse_loss(decoder(y_tilde), img) * 100 + bpp
        loss.backward()
        opt.step()
        print(step, loss.item(), bpp.item())


if __name__ == "__main__":
    main()
