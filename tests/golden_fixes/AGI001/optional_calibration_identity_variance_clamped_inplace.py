"""A heteroscedastic regression head (Gaussian negative log-likelihood): the variance is ``exp`` of a
predicted log-variance -- ``exp`` saves its result for backward -- then passes an optional calibration
layer (``nn.Linear(1, 1) if calibrate else nn.Identity()``, off by default) and is floored in place.
With calibration off the floor overwrites the very tensor ``exp`` saved."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class GaussianHead(nn.Module):
    def __init__(self, dim, calibrate=False):
        super().__init__()
        self.mean = nn.Linear(dim, 1)
        self.log_var = nn.Linear(dim, 1)
        self.calibration = nn.Linear(1, 1) if calibrate else nn.Identity()

    def forward(self, h):
        var = torch.exp(self.log_var(h))
        var = self.calibration(var)
        var = var.clamp(min=1e-4)  # expect: AGI001
        return self.mean(h), var


def run():
    torch.manual_seed(0)
    head = GaussianHead(5)
    mean, var = head(torch.randn(4, 5))
    loss = F.gaussian_nll_loss(mean, torch.randn(4, 1), var)
    loss.backward()
    return loss


if __name__ == "__main__":
    print(run())
