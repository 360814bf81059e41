# source: https://github.com/coarse-graining/cgnet/issues/63 (last LinearLayer given nn.Tanh(); prior energies added with +=; forces by autograd.grad)
import torch
import torch.nn as nn


def LinearLayer(d_in, d_out, activation=None):
    seq = [nn.Linear(d_in, d_out)]
    if activation is not None:
        seq += [activation]
    return seq


class HarmonicLayer(nn.Module):
    def __init__(self, k):
        super().__init__()
        self.k = k

    def forward(self, in_feat):
        return (self.k * (in_feat - 1.0) ** 2).sum(1, keepdim=True) / 2


class RepulsionLayer(nn.Module):
    def __init__(self, sigma):
        super().__init__()
        self.sigma = sigma

    def forward(self, in_feat):
        return ((self.sigma / (in_feat.abs() + 0.5)) ** 6).sum(1, keepdim=True)


class Distances(nn.Module):
    def forward(self, coord):
        diff = coord[:, 1:, :] - coord[:, :-1, :]
        return diff.norm(dim=2)


class CGnet(nn.Module):
    def __init__(self, arch, criterion, feature=None, priors=None):
        super().__init__()
        self.arch = nn.Sequential(*arch)
        self.criterion = criterion
        self.feature = feature
        self.priors = nn.ModuleList(priors) if priors else None

    def forward(self, coord):
        feature = self.feature(coord)
        energy = self.arch(feature)
        if self.priors:
            for prior in self.priors:
                energy += prior(feature)  # culprit
        force = torch.autograd.grad(-torch.sum(energy), coord, create_graph=True, retain_graph=True)
        return energy, force[0]


torch.manual_seed(0)
width_layer = 8
layers = LinearLayer(3, width_layer, activation=nn.Tanh())
layers += LinearLayer(width_layer, 1, activation=nn.Tanh())
priors = [HarmonicLayer(1.0), RepulsionLayer(0.3), HarmonicLayer(0.5)]
net = CGnet(layers, nn.MSELoss(), feature=Distances(), priors=priors)
optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
coords = torch.randn(6, 4, 3, requires_grad=True)
forces = torch.randn(6, 4, 3)
optimizer.zero_grad()
energy, pred_force = net.forward(coords)
loss = net.criterion(pred_force, forces)
loss.backward()
optimizer.step()
print(loss.item())
