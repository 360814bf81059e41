# intended: AGI001
# Trying to save memory: clamp the sigmoid output into the same buffer under no_grad.
import torch
import torch.nn as nn

def main():
    torch.manual_seed(0)
    model = nn.Linear(10, 4)
    x = torch.randn(6, 10)
    y = torch.rand(6, 4)
    probs = torch.sigmoid(model(x))
    with torch.no_grad():
        torch.clamp(probs, 1e-4, 1 - 1e-4, out=probs)  # culprit
    loss = nn.functional.binary_cross_entropy(probs, y)
    loss.backward()
    print(loss.item())

if __name__ == "__main__":
    main()
