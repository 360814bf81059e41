# source: lucidrains/byol-pytorch style online/target networks with momentum update
# BYOL self-supervised step: online encoder + predictor, momentum target encoder, cosine loss.
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F


def MLP(dim, projection_size, hidden_size=64):
    return nn.Sequential(
        nn.Linear(dim, hidden_size), nn.BatchNorm1d(hidden_size), nn.ReLU(inplace=True),
        nn.Linear(hidden_size, projection_size),
    )


class Encoder(nn.Module):
    def __init__(self, out_dim=32):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU(inplace=True),
            nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.ReLU(inplace=True),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        )
        self.projector = MLP(32, out_dim)

    def forward(self, x):
        return self.projector(self.net(x))


def loss_fn(x, y):
    x = F.normalize(x, dim=-1, p=2)
    y = F.normalize(y, dim=-1, p=2)
    return 2 - 2 * (x * y).sum(dim=-1)


def augment(x):
    x = x + 0.1 * torch.randn_like(x)
    return torch.where(torch.rand(x.size(0), 1, 1, 1) < 0.5, x.flip(-1), x)


class BYOL(nn.Module):
    def __init__(self, moving_average_decay=0.99, projection_size=32):
        super().__init__()
        self.online_encoder = Encoder(projection_size)
        self.online_predictor = MLP(projection_size, projection_size)
        self.target_encoder = copy.deepcopy(self.online_encoder)
        self.beta = moving_average_decay

    def update_moving_average(self):
        for online_p, target_p in zip(self.online_encoder.parameters(), self.target_encoder.parameters()):
            update_average(target_p, online_p, self.beta)

    def forward(self, x):
        one, two = augment(x), augment(x)
        online_pred_one = self.online_predictor(self.online_encoder(one))
        online_pred_two = self.online_predictor(self.online_encoder(two))
        with torch.no_grad():
            target_proj_one = self.target_encoder(one).detach()
            target_proj_two = self.target_encoder(two).detach()
        loss = loss_fn(online_pred_one, target_proj_two) + loss_fn(online_pred_two, target_proj_one)
        return loss.mean()


def update_average(target_p, online_p, beta):
    target_p.mul_(beta).add_(online_p.detach(), alpha=1 - beta)  # culprit


torch.manual_seed(0)
learner = BYOL()
opt = torch.optim.Adam(
    list(learner.online_encoder.parameters()) + list(learner.online_predictor.parameters()), lr=3e-4)
for step in range(3):
    images = torch.randn(8, 3, 16, 16)
    loss = learner(images)
    opt.zero_grad()
    loss.backward()
    opt.step()
    learner.update_moving_average()
    print(step, loss.item())
