# intended: safe
# like: CapsNet reimplementations, routing logits b_ij += agreement inside the routing loop (softmax saves its output, not b_ij)
import torch
import torch.nn as nn
import torch.nn.functional as F


def squash(s, dim=-1):
    squared_norm = (s ** 2).sum(dim=dim, keepdim=True)
    scale = squared_norm / (1 + squared_norm)
    return scale * s / torch.sqrt(squared_norm + 1e-8)


class PrimaryCaps(nn.Module):
    def __init__(self, in_ch=8, num_caps=4, caps_dim=4):
        super().__init__()
        self.caps_dim = caps_dim
        self.conv = nn.Conv2d(in_ch, num_caps * caps_dim, 3, stride=2)

    def forward(self, x):
        u = self.conv(x)
        u = u.view(x.size(0), -1, self.caps_dim)
        return squash(u)


class DigitCaps(nn.Module):
    def __init__(self, in_caps, in_dim=4, num_caps=3, out_dim=6, routing_iters=3):
        super().__init__()
        self.routing_iters = routing_iters
        self.W = nn.Parameter(0.01 * torch.randn(1, in_caps, num_caps, out_dim, in_dim))

    def forward(self, u):
        B, in_caps, _ = u.shape
        u_hat = (self.W @ u[:, :, None, :, None]).squeeze(-1)
        b_ij = torch.zeros(B, in_caps, u_hat.size(2), 1)
        for iteration in range(self.routing_iters):
            c_ij = F.softmax(b_ij, dim=2)
            s_j = (c_ij * u_hat).sum(dim=1, keepdim=True)
            v_j = squash(s_j)
            if iteration < self.routing_iters - 1:
                a_ij = (u_hat * v_j).sum(dim=-1, keepdim=True)
                b_ij += a_ij
        return v_j.squeeze(1)


class CapsNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3)
        self.primary = PrimaryCaps()
        self.digits = DigitCaps(in_caps=4 * 3 * 3)

    def forward(self, x):
        v = self.digits(self.primary(F.relu(self.conv1(x))))
        return v.norm(dim=-1)


def margin_loss(lengths, labels, m_pos=0.9, m_neg=0.1, lam=0.5):
    t = F.one_hot(labels, lengths.size(1)).float()
    loss = t * F.relu(m_pos - lengths) ** 2 + lam * (1 - t) * F.relu(lengths - m_neg) ** 2
    return loss.sum(1).mean()


def main():
    torch.manual_seed(0)
    model = CapsNet()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    x, y = torch.randn(4, 1, 9, 9), torch.randint(0, 3, (4,))
    for step in range(2):
        loss = margin_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, loss.item())


if __name__ == "__main__":
    main()
