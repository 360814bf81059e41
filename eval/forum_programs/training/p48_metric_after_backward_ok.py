# intended: safe
# Accuracy computed in place on the probabilities *after* backward() has run.
import torch
import torch.nn as nn

def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 1), nn.Sigmoid())
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    x = torch.randn(32, 6)
    y = (x.sum(1, keepdim=True) > 0).float()
    for epoch in range(3):
        probs = model(x)
        loss = nn.functional.binary_cross_entropy(probs, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        probs[probs >= 0.5] = 1.0
        probs[probs < 0.5] = 0.0
        acc = (probs == y).float().mean().item()
        print(epoch, loss.item(), acc)

if __name__ == "__main__":
    main()
