"""Activation clipping by forward hooks, installed on every ``nn.Tanh`` of a model
(``for m in model.modules(): if isinstance(m, nn.Tanh): m.register_forward_hook(clip_)``). The hook
clamps the module's output in place, but tanh saved that output for its backward, so the training
step's backward raises."""
import torch
from torch import nn


def clip_(module, inputs, output):
    output = output.clone()
    output.clamp_(-0.5, 0.5)  # expect: AGI001
    return output


def install_clipping(model, types=(nn.Tanh,)):
    handles = []
    for m in model.modules():
        if isinstance(m, types):
            handles.append(m.register_forward_hook(clip_))
    return handles


def run():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(6, 12), nn.Tanh(), nn.Linear(12, 12), nn.Tanh(), nn.Linear(12, 2))
    install_clipping(model)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x, y = torch.randn(8, 6), torch.randint(0, 2, (8,))
    logits = model(x)
    loss = nn.functional.cross_entropy(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return logits


if __name__ == "__main__":
    print(run())
