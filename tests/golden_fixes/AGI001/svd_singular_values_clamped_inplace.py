"""Whitening with a floor on the singular values: ``torch.linalg.svd`` saved U, S and Vh for backward,
and ``s.clamp_(min=eps)`` overwrites S before the whitened features are backpropagated."""
import torch


def whiten(features, eps=1e-2):
    centred = features - features.mean(dim=0)
    u, s, vh = torch.linalg.svd(centred, full_matrices=False)
    s = s.clamp(min=eps)  # expect: AGI001
    return u @ torch.diag(1.0 / s) @ vh


def run():
    torch.manual_seed(0)
    features = torch.randn(6, 3, requires_grad=True)
    white = whiten(features)
    white.pow(2).sum().backward()
    return white


if __name__ == "__main__":
    print(run())
