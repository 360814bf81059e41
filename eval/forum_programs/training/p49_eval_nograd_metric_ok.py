# intended: safe
# Validation loop: in-place thresholding of sigmoid outputs inside torch.no_grad().
import torch
import torch.nn as nn

@torch.no_grad()
def evaluate(model, x, y):
    model.eval()
    probs = torch.sigmoid(model(x))
    probs[probs >= 0.5] = 1.0
    probs[probs < 0.5] = 0.0
    model.train()
    return (probs == y).float().mean().item()

def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(6, 16), nn.BatchNorm1d(16), nn.ReLU(), nn.Linear(16, 1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    x = torch.randn(32, 6)
    y = (x.sum(1, keepdim=True) > 0).float()
    for epoch in range(3):
        loss = nn.functional.binary_cross_entropy_with_logits(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(epoch, loss.item(), evaluate(model, x, y))

if __name__ == "__main__":
    main()
