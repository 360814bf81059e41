# intended: safe
# Pruning with a mask: views taken under no_grad and modified under no_grad.
import torch
import torch.nn as nn

def main():
    torch.manual_seed(0)
    model = nn.Linear(8, 6)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x, y = torch.randn(16, 8), torch.randn(16, 6)
    with torch.no_grad():
        norms = model.weight.norm(dim=1)
        prune_idx = norms.argsort()[:2].tolist()
        rows = [model.weight[i] for i in prune_idx]
    mask = torch.ones(6, 1)
    mask[prune_idx] = 0
    for step in range(3):
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        model.weight.grad.mul_(mask)
        opt.step()
        with torch.no_grad():
            for row in rows:
                row.zero_()
        print(step, loss.item())

if __name__ == "__main__":
    main()
