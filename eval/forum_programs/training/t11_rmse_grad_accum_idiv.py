# intended: AGI001
# RMSE loss with gradient accumulation: scale the loss by the number of accumulation steps.
import torch
import torch.nn as nn


def rmse(pred, target):
    return torch.sqrt(nn.functional.mse_loss(pred, target) + 1e-8)


def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 1))
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)
    accum_steps = 4
    X, Y = torch.randn(32, 5), torch.randn(32, 1)
    optimizer.zero_grad()
    for i, (xb, yb) in enumerate(zip(X.chunk(8), Y.chunk(8))):
        loss = rmse(model(xb), yb)
        loss /= accum_steps  # culprit
        loss.backward()
        if (i + 1) % accum_steps == 0:
            optimizer.step()
            optimizer.zero_grad()
            print(f"step {(i + 1) // accum_steps}: {loss.item() * accum_steps:.4f}")


if __name__ == "__main__":
    main()
