# source: open_lth / lottery-ticket style iterative magnitude pruning with persistent weight masks
# LeNet-300-100 style MLP trained with global magnitude pruning masks re-applied after every optimizer step.
import torch
import torch.nn as nn
import torch.nn.functional as F


class LeNet(nn.Module):
    def __init__(self, in_dim=64, hidden=(30, 10), num_classes=10):
        super().__init__()
        dims = (in_dim, *hidden)
        self.fc_layers = nn.ModuleList([nn.Linear(a, b) for a, b in zip(dims[:-1], dims[1:])])
        self.fc = nn.Linear(dims[-1], num_classes)

    def forward(self, x):
        x = x.flatten(1)
        for layer in self.fc_layers:
            x = F.relu(layer(x))
        return self.fc(x)

    @property
    def prunable_layer_names(self):
        return [name + ".weight" for name, m in self.named_modules() if isinstance(m, nn.Linear)]


def magnitude_masks(model, fraction, current_masks=None):
    names = model.prunable_layer_names
    params = dict(model.named_parameters())
    current_masks = current_masks or {n: torch.ones_like(params[n]) for n in names}
    weights = torch.cat([params[n].detach()[current_masks[n] == 1].abs() for n in names])
    k = int(fraction * weights.numel())
    threshold = weights.kthvalue(k).values if k > 0 else weights.min() - 1
    return {n: torch.where(params[n].detach().abs() > threshold, current_masks[n], torch.zeros_like(current_masks[n]))
            for n in names}


def apply_masks(model, masks):
    for name, param in model.named_parameters():
        if name in masks:
            param.mul_(masks[name])  # culprit


def sparsity(masks):
    total = sum(m.numel() for m in masks.values())
    return 1.0 - sum(m.sum().item() for m in masks.values()) / total


def train(model, masks, steps=3, lr=0.1):
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    for step in range(steps):
        x, y = torch.randn(16, 1, 8, 8), torch.randint(0, 10, (16,))
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        apply_masks(model, masks)
    return loss.item()


torch.manual_seed(0)
model = LeNet()
init_state = {k: v.clone() for k, v in model.state_dict().items()}
masks = None
for level in range(2):
    masks = magnitude_masks(model, 0.2, masks)
    model.load_state_dict(init_state)
    apply_masks(model, masks)
    loss = train(model, masks)
    print(f"level {level} sparsity {sparsity(masks):.3f} loss {loss:.4f}")
