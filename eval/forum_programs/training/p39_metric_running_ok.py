# intended: safe
# Epoch metrics accumulated in place into tensors, gradient accumulation over micro-batches.
import torch
import torch.nn as nn

def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 1), nn.Sigmoid())
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    X = torch.randn(64, 6)
    Y = (X.sum(1, keepdim=True) > 0).float()
    accum = 4
    running_loss = torch.zeros(())
    correct = torch.zeros((), dtype=torch.long)
    opt.zero_grad()
    for i, (x, y) in enumerate(zip(X.split(8), Y.split(8))):
        probs = model(x)
        loss = nn.functional.binary_cross_entropy(probs, y) / accum
        loss.backward()
        running_loss += loss.detach()
        pred = probs.detach().clone()
        pred[pred >= 0.5] = 1.0
        pred[pred < 0.5] = 0.0
        correct += (pred == y).sum()
        if (i + 1) % accum == 0:
            opt.step()
            opt.zero_grad()
    print(running_loss.item(), correct.item() / 64)

if __name__ == "__main__":
    main()
