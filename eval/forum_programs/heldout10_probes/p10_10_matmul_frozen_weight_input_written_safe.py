# probe: feats @ W with W needing no grad saves only W, so writing feats in place afterwards is fine
import torch
import torch.nn as nn

torch.manual_seed(0)


class FrozenProjector(nn.Module):
    def __init__(self, dim_in, dim_out):
        super().__init__()
        self.register_buffer("W", torch.randn(dim_in, dim_out))

    def forward(self, feats):
        return feats @ self.W


def main():
    encoder = nn.Linear(8, 6)
    projector = FrozenProjector(6, 3)
    x = torch.randn(5, 8)
    feats = encoder(x)
    z = projector(feats)
    feats.clamp_(min=0.0)
    loss = z.pow(2).mean() + feats.mean()
    loss.backward()
    print("grad", encoder.weight.grad.norm().item())


if __name__ == "__main__":
    main()
