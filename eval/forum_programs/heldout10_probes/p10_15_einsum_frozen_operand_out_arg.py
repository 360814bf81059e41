# probe: einsum saves a no-grad operand when the other operand requires grad; torch.mul(..., out=) into that operand makes it stale
import torch
import torch.nn as nn

torch.manual_seed(0)


def expand_basis(coeffs, basis):
    return torch.einsum("bk,kd->bd", coeffs, basis)


def main():
    coeff_net = nn.Linear(5, 3)
    basis = torch.randn(3, 8)
    x = torch.randn(4, 5)
    coeffs = coeff_net(x)
    recon = expand_basis(coeffs, basis)
    torch.mul(basis, 0.5, out=basis)  # culprit
    loss = recon.pow(2).mean()
    loss.backward()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
