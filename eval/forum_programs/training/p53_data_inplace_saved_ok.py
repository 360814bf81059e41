# intended: safe (silently wrong gradient, but no error)
# Clamping probabilities via .data to avoid log(0) in a custom BCE.
import torch
import torch.nn as nn

def main():
    torch.manual_seed(0)
    model = nn.Linear(4, 3)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x, y = torch.randn(10, 4), torch.randint(0, 2, (10, 3)).float()
    for _ in range(3):
        p = torch.sigmoid(model(x))
        p.data.clamp_(1e-6, 1 - 1e-6)
        loss = -(y * torch.log(p) + (1 - y) * torch.log(1 - p)).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(loss.item())

if __name__ == "__main__":
    main()
