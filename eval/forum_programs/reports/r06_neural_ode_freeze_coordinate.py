# intended: AGI001
# like: forum thread on a hand-written Neural ODE, ODE func zeroes the derivative of a conserved coordinate in place
import torch
import torch.nn as nn


class ODEFunc(nn.Module):
    def __init__(self, dim, hidden=32, n_frozen=1):
        super().__init__()
        self.n_frozen = n_frozen
        self.net = nn.Sequential(
            nn.Linear(dim, hidden),
            nn.Tanh(),
            nn.Linear(hidden, dim),
            nn.Tanh(),
        )
        self.nfe = 0

    def forward(self, t, y):
        self.nfe += 1
        dy = self.net(y)
        dy[:, -self.n_frozen:] = 0.0  # culprit
        return dy


def rk4_step(func, t, y, dt):
    k1 = func(t, y)
    k2 = func(t + dt / 2, y + dt / 2 * k1)
    k3 = func(t + dt / 2, y + dt / 2 * k2)
    k4 = func(t + dt, y + dt * k3)
    return y + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)


def odeint(func, y0, ts):
    ys = [y0]
    y = y0
    for i in range(len(ts) - 1):
        y = rk4_step(func, ts[i], y, ts[i + 1] - ts[i])
        ys.append(y)
    return torch.stack(ys)


def main():
    torch.manual_seed(0)
    func = ODEFunc(dim=3)
    optimizer = torch.optim.RMSprop(func.parameters(), lr=1e-3)
    ts = torch.linspace(0.0, 1.0, 6)
    y0 = torch.randn(10, 3)
    true_y = y0[None] + 0.1 * torch.randn(6, 10, 3)
    for itr in range(2):
        optimizer.zero_grad()
        pred_y = odeint(func, y0, ts)
        loss = torch.mean(torch.abs(pred_y - true_y))
        loss.backward()
        optimizer.step()
        print(f"Iter {itr:04d} | Total Loss {loss.item():.6f} | NFE {func.nfe}")


if __name__ == "__main__":
    main()
