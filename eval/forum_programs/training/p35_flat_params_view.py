# intended: AGI004
# Weight averaging (SWA by hand) via flattened views of parameters.
import torch
import torch.nn as nn

def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(5, 8), nn.ReLU(), nn.Linear(8, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    x, y = torch.randn(32, 5), torch.randn(32, 1)
    with torch.no_grad():
        views = [p.view(-1) for p in model.parameters()]
    avg = [p.detach().clone().view(-1) for p in model.parameters()]
    for n in range(1, 4):
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        for a, p in zip(avg, model.parameters()):
            a.mul_(n / (n + 1)).add_(p.detach().view(-1) / (n + 1))
    for v, a in zip(views, avg):
        v.copy_(a)  # culprit
    print(nn.functional.mse_loss(model(x), y).item())

if __name__ == "__main__":
    main()
