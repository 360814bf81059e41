# Source: https://github.com/cornellius-gp/gpytorch/pull/1203 (in-place _symeig clamping fails to have a correct backward; replaced clamp_min_ with the out-of-place version)
# Unit kind: cross-function
import torch

torch.manual_seed(0)


def spectral_decompose(cov):
    return torch.linalg.eigh(cov)          # eigh saves its eigenvalues and eigenvectors


def stabilize(evals, eps=1e-3):
    evals.clamp_min_(eps)  # culprit
    return evals


def whiten(x, evals, evecs):
    return x @ evecs / evals.sqrt()


a = torch.randn(6, 3, requires_grad=True)
cov = a.t() @ a / 6
evals, evecs = spectral_decompose(cov)
evals = stabilize(evals)
z = whiten(torch.randn(4, 3), evals, evecs)
z.pow(2).mean().backward()
print("ok")
