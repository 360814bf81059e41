import torch.nn as nn


def make_generator(n_ideas, n_points):
    return nn.Sequential(nn.Linear(n_ideas, 32), nn.ReLU(), nn.Linear(32, n_points))


def make_discriminator(n_points):
    return nn.Sequential(nn.Linear(n_points, 32), nn.ReLU(), nn.Linear(32, 1), nn.Sigmoid())
