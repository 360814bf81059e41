# probe: std saves its output; adding eps through an explicit __iadd__ call makes it stale
import torch
import torch.nn as nn

torch.manual_seed(0)


def zscore(x):
    mu = x.mean(0, keepdim=True)
    sigma = x.std(0, keepdim=True)
    sigma.__iadd__(1e-5)  # culprit
    return (x - mu) / sigma


def main():
    fc = nn.Linear(3, 3)
    x = torch.randn(8, 3)
    z = zscore(fc(x))
    loss = z.pow(3).mean()
    loss.backward()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
