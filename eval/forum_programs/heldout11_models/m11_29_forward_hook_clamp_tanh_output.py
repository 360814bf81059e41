# source: activation-clipping forward hook registered on a model's activation modules (quantization-aware / feature-clipping utilities)
# description: a forward hook clamps the module output in-place; on nn.Tanh that output was saved by tanh for backward
import torch
import torch.nn as nn


def clip_hook(module, inputs, output):
    output.clamp_(-module.clip_value, module.clip_value)  # culprit


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.Sequential(
            nn.Linear(6, 12), nn.LayerNorm(12), nn.Tanh(),
            nn.Linear(12, 12), nn.LayerNorm(12), nn.Tanh(),
            nn.Linear(12, 3),
        )

    def forward(self, x):
        return self.layers(x)


def install_clipping(model, clip_value=0.8, types=(nn.Tanh,)):
    handles = []
    for mod in model.modules():
        if isinstance(mod, types):
            mod.clip_value = clip_value
            handles.append(mod.register_forward_hook(clip_hook))
    return handles


if __name__ == "__main__":
    torch.manual_seed(0)
    model = Encoder()
    install_clipping(model)
    x = torch.randn(4, 6)
    loss = model(x).pow(2).mean()
    loss.backward()
