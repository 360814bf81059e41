# intended: AGI004
# Pruning: grab views of weight rows under no_grad, zero them later during training.
import torch
import torch.nn as nn

def main():
    torch.manual_seed(0)
    model = nn.Linear(8, 6)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x, y = torch.randn(16, 8), torch.randn(16, 6)
    with torch.no_grad():
        norms = model.weight.norm(dim=1)
        prune_rows = [model.weight[i] for i in norms.argsort()[:2].tolist()]
    for step in range(3):
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        for row in prune_rows:
            row.zero_()  # culprit
        print(step, loss.item())

if __name__ == "__main__":
    main()
