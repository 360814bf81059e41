# intended: AGI001
# like: forum thread on iterative magnitude pruning, masks re-applied to weights between forward and backward
import torch
import torch.nn as nn
import torch.nn.functional as F


class LeNet300(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(20, 30)
        self.fc2 = nn.Linear(30, 10)
        self.fc3 = nn.Linear(10, 3)

    def forward(self, x):
        return self.fc3(F.relu(self.fc2(F.relu(self.fc1(x)))))


def make_masks(model, prune_percent):
    masks = {}
    for name, p in model.named_parameters():
        if "weight" in name:
            thresh = torch.quantile(p.detach().abs().flatten(), prune_percent)
            masks[name] = (p.detach().abs() > thresh).float()
    return masks


def apply_masks(model, masks):
    with torch.no_grad():
        for name, p in model.named_parameters():
            if name in masks:
                p.mul_(masks[name])  # culprit


def train_epoch(model, masks, optimizer, data, targets):
    model.train()
    for xb, yb in zip(data.split(8), targets.split(8)):
        output = model(xb)
        loss = F.cross_entropy(output, yb)
        apply_masks(model, masks)  # keep pruned weights at exactly zero
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.item()


def main():
    torch.manual_seed(0)
    model = LeNet300()
    optimizer = torch.optim.Adam(model.parameters(), lr=1.2e-3)
    data, targets = torch.randn(32, 20), torch.randint(0, 3, (32,))
    masks = make_masks(model, 0.2)
    for epoch in range(2):
        print(epoch, train_epoch(model, masks, optimizer, data, targets))


if __name__ == "__main__":
    main()
