# intended: AGI001
# Gradual magnitude pruning for a conv net: the schedule helper refreshes every layer's mask
# buffer in place. It is called after the loss is computed but before backward, and the
# forward's `weight * mask` saved the mask.
import torch
import torch.nn as nn
import torch.nn.functional as F


class MaskedConv(nn.Conv2d):
    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.register_buffer("mask", torch.ones_like(self.weight))

    def forward(self, x):
        return self._conv_forward(x, self.weight * self.mask, self.bias)


@torch.no_grad()
def apply_sparsity(model, sparsity):
    for m in model.modules():
        if isinstance(m, MaskedConv):
            w = m.weight.abs().flatten()
            k = max(1, int(sparsity * w.numel()))
            thresh = w.kthvalue(k).values
            m.mask.copy_((m.weight.abs() > thresh).float())  # culprit


def main():
    torch.manual_seed(0)
    model = nn.Sequential(MaskedConv(1, 4, 3, padding=1), nn.ReLU(), MaskedConv(4, 1, 3, padding=1))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for step in range(3):
        x = torch.randn(2, 1, 8, 8)
        loss = F.mse_loss(model(x), x)
        if step % 2 == 1:
            apply_sparsity(model, 0.1 * step)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, round(loss.item(), 4))


if __name__ == "__main__":
    main()
