# probe: act * mask with a mask that needs no grad saves only the mask, so writing act afterwards is fine
import torch
import torch.nn as nn

torch.manual_seed(0)


def apply_mask(act, mask):
    return act * mask


def main():
    layer = nn.Linear(6, 6)
    x = torch.randn(4, 6)
    act = layer(x)
    mask = (torch.rand(4, 6) > 0.3).float()
    masked = apply_mask(act, mask)
    act.add_(1.0)
    loss = masked.sum() + act.sum()
    loss.backward()
    print("grad", layer.weight.grad.sum().item())


if __name__ == "__main__":
    main()
