# probe: masked_fill with a grad-requiring tensor fill value saves only the mask, so writing the source in place afterwards is fine
import torch
import torch.nn as nn

torch.manual_seed(0)


class PadFiller(nn.Module):
    def __init__(self):
        super().__init__()
        self.pad_value = nn.Parameter(torch.tensor(0.5))

    def forward(self, h, pad_mask):
        return h.masked_fill(pad_mask, self.pad_value)


def main():
    fc = nn.Linear(4, 4)
    filler = PadFiller()
    x = torch.randn(3, 4)
    pad_mask = torch.rand(3, 4) > 0.6
    h = fc(x)
    filled = filler(h, pad_mask)
    h.add_(1.0)
    loss = filled.pow(2).sum() + h.sum()
    loss.backward()
    print("pad grad", filler.pad_value.grad.item())


if __name__ == "__main__":
    main()
