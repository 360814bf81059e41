# intended: AGI001
# Computing accuracy from probabilities before calling backward.
import torch
import torch.nn as nn

def accuracy(probs, target):
    probs[probs >= 0.5] = 1.0  # culprit
    probs[probs < 0.5] = 0.0
    return (probs == target).float().mean().item()

def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 1), nn.Sigmoid())
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    x = torch.randn(32, 6)
    y = (x.sum(1, keepdim=True) > 0).float()
    probs = model(x)
    loss = nn.functional.binary_cross_entropy(probs, y)
    acc = accuracy(probs, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(loss.item(), acc)

if __name__ == "__main__":
    main()
