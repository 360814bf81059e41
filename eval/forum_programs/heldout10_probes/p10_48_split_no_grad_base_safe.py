# probe: writing in place to a split() view is fine when the base tensor does not require grad
import torch
import torch.nn as nn

torch.manual_seed(0)


def split_batch(data, size):
    return data.split(size, dim=0)


def main():
    model = nn.Linear(3, 1)
    data = torch.randn(6, 3)
    chunks = split_batch(data, 2)
    chunks[0].mul_(2.0)
    loss = sum(model(c).pow(2).mean() for c in chunks)
    loss.backward()
    print("grad", model.weight.grad.norm().item())


if __name__ == "__main__":
    main()
