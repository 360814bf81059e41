# intended: AGI002
# like: glow-pytorch issue, data-dependent ActNorm init written as self.loc.copy_(...) without torch.no_grad()/.data
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class ActNorm(nn.Module):
    def __init__(self, in_channel):
        super().__init__()
        self.loc = nn.Parameter(torch.zeros(1, in_channel, 1, 1))
        self.scale = nn.Parameter(torch.ones(1, in_channel, 1, 1))
        self.register_buffer("initialized", torch.tensor(0, dtype=torch.uint8))

    def initialize(self, input):
        flatten = input.permute(1, 0, 2, 3).contiguous().view(input.shape[1], -1)
        mean = flatten.mean(1).view(1, -1, 1, 1)
        std = flatten.std(1).view(1, -1, 1, 1)
        self.loc.copy_(-mean)  # culprit
        self.scale.copy_(1 / (std + 1e-6))

    def forward(self, input):
        _, _, height, width = input.shape
        if self.initialized.item() == 0:
            self.initialize(input)
            self.initialized.fill_(1)
        logdet = height * width * torch.sum(torch.log(torch.abs(self.scale)))
        return self.scale * (input + self.loc), logdet


class InvConv2d(nn.Module):
    def __init__(self, in_channel):
        super().__init__()
        q, _ = torch.linalg.qr(torch.randn(in_channel, in_channel))
        self.weight = nn.Parameter(q.unsqueeze(2).unsqueeze(3))

    def forward(self, input):
        _, _, height, width = input.shape
        out = F.conv2d(input, self.weight)
        logdet = height * width * torch.slogdet(self.weight.squeeze())[1]
        return out, logdet


class AffineCoupling(nn.Module):
    def __init__(self, in_channel, filter_size=8):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(in_channel // 2, filter_size, 3, padding=1), nn.ReLU(),
                                 nn.Conv2d(filter_size, in_channel, 3, padding=1))

    def forward(self, input):
        in_a, in_b = input.chunk(2, 1)
        log_s, t = self.net(in_a).chunk(2, 1)
        s = torch.sigmoid(log_s + 2)
        out_b = (in_b + t) * s
        logdet = torch.sum(torch.log(s).view(input.shape[0], -1), 1)
        return torch.cat([in_a, out_b], 1), logdet


class Flow(nn.Module):
    def __init__(self, in_channel):
        super().__init__()
        self.actnorm = ActNorm(in_channel)
        self.invconv = InvConv2d(in_channel)
        self.coupling = AffineCoupling(in_channel)

    def forward(self, input):
        out, logdet = self.actnorm(input)
        out, det1 = self.invconv(out)
        out, det2 = self.coupling(out)
        return out, logdet + det1 + det2


def main():
    torch.manual_seed(0)
    flows = nn.ModuleList([Flow(4), Flow(4)])
    optimizer = torch.optim.Adam(flows.parameters(), lr=1e-4)
    for step in range(2):
        x = torch.randn(8, 4, 4, 4) * 0.5 + 0.1
        out, logdet = x, 0.0
        for flow in flows:
            out, det = flow(out)
            logdet = logdet + det
        log_p = -0.5 * (out ** 2 + math.log(2 * math.pi)).flatten(1).sum(1)
        loss = -(log_p + logdet).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, loss.item())


if __name__ == "__main__":
    main()
