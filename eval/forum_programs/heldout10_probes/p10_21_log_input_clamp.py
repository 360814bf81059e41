# probe: log saves its input; clamping the rates in place after taking their log makes it stale
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def poisson_nll(rates, counts):
    log_rates = torch.log(rates)
    rates.clamp_(min=1e-2)  # culprit
    return (rates - counts * log_rates).mean()


def main():
    fc = nn.Linear(3, 4)
    x = torch.randn(5, 3)
    counts = torch.randint(0, 4, (5, 4)).float()
    rates = F.softplus(fc(x)) + 1e-3
    loss = poisson_nll(rates, counts)
    loss.backward()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
