"""``x * w`` saves ``x`` when ``w`` requires grad. Normalising the data tensor ``x`` in place afterwards
breaks ``w``'s gradient although ``x`` never required grad."""
import torch


def run():
    torch.manual_seed(0)
    w = torch.randn(4, requires_grad=True)
    x = torch.randn(8, 4)
    pred = (x * w).sum(dim=1)
    x = x - x.mean(dim=0)  # expect: AGI001
    loss = pred.pow(2).mean()
    loss.backward()
    return pred


if __name__ == "__main__":
    print(run())
