# Source: https://github.com/huggingface/pytorch-image-models/pull/2638 (huggingface/pytorch-image-models PR #2638: create_act_layer docs, "inplace handling with graceful fallback"); https://github.com/pytorch/vision/issues/807 ("The places where we use in-place ReLU are safe")
# Unit kind: cross-class
# Look-alike of hazard/024 and hazard/018: an activation factory passes inplace=True
# through **kwargs, but every block applies it right after BatchNorm (which saves its
# input) and adds the residual afterwards, out of place.
import torch
import torch.nn as nn

torch.manual_seed(0)

_ACT_LAYERS = {"relu": nn.ReLU, "leaky_relu": nn.LeakyReLU, "gelu": nn.GELU}


def create_act_layer(name, **kwargs):
    layer = _ACT_LAYERS[name]
    if "inplace" in kwargs and layer is nn.GELU:
        kwargs.pop("inplace")
    return layer(**kwargs)


class ConvNormAct(nn.Module):
    def __init__(self, cin, cout, act_layer="relu", **act_kwargs):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(cout)
        self.act = create_act_layer(act_layer, **act_kwargs)

    def forward(self, x):
        return self.act(self.bn(self.conv(x)))


class BasicBlock(nn.Module):
    def __init__(self, ch, **kwargs):
        super().__init__()
        self.conv1 = ConvNormAct(ch, ch, **kwargs)
        self.conv2 = ConvNormAct(ch, ch, **kwargs)

    def forward(self, x):
        return x + self.conv2(self.conv1(x))


net = nn.Sequential(BasicBlock(4, act_layer="leaky_relu", negative_slope=0.1, inplace=True),
                    BasicBlock(4, act_layer="relu", inplace=True))
net(torch.randn(2, 4, 5, 5)).mean().backward()
print("done")
