# probe: embedding_bag (mode="max", no per_sample_weights) does not save its weight, so updating the weight under no_grad before backward is fine
import torch
import torch.nn as nn

torch.manual_seed(0)


def bag_features(bag, ids, offsets):
    return bag(ids, offsets)


def main():
    bag = nn.EmbeddingBag(20, 6, mode="max")
    ids = torch.tensor([1, 4, 7, 7, 12, 3, 19])
    offsets = torch.tensor([0, 3, 5])
    feats = bag_features(bag, ids, offsets)
    with torch.no_grad():
        bag.weight.add_(0.01 * torch.randn_like(bag.weight))
    loss = feats.pow(2).sum()
    loss.backward()
    print("grad", bag.weight.grad.norm().item())


if __name__ == "__main__":
    main()
