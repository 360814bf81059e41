# probe: exp saves its output; a caller clamping the tensor returned by an exp helper makes it stale
import torch

torch.manual_seed(0)


def positive_weights(logits):
    return torch.exp(logits)


def weighted_pool(feats, logits):
    w = positive_weights(logits)
    w.clamp_(max=10.0)  # culprit
    return (feats * w).sum(dim=0)


def main():
    feats = torch.randn(6, 3, requires_grad=True)
    logits = torch.randn(6, 1, requires_grad=True)
    pooled = weighted_pool(feats, logits)
    loss = pooled.pow(2).sum()
    loss.backward()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
