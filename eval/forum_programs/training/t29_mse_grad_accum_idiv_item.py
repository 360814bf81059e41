# intended: safe
# Gradient accumulation with MSE: loss /= accum_steps in place (mse_loss's output is
# not saved by anything), running loss kept as a Python float.
import torch
import torch.nn as nn


def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 1))
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=1, gamma=0.5)
    criterion = nn.MSELoss()
    accum_steps = 4
    X, Y = torch.randn(32, 5), torch.randn(32, 1)
    running = 0.0
    optimizer.zero_grad()
    for i, (xb, yb) in enumerate(zip(X.chunk(8), Y.chunk(8))):
        loss = criterion(model(xb), yb)
        loss /= accum_steps
        loss.backward()
        running += loss.item()
        if (i + 1) % accum_steps == 0:
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad()
            print(f"step {(i + 1) // accum_steps}: {running:.4f} lr={scheduler.get_last_lr()[0]:.5f}")
            running = 0.0


if __name__ == "__main__":
    main()
