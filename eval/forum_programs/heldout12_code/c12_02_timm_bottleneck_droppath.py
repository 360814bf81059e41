# source: timm ResNet Bottleneck with ConvNormAct, zero_init_last and DropPath
# Bottleneck ResNet stage with inplace activations after batchnorm, residual += and stochastic depth.
import torch
import torch.nn as nn
import torch.nn.functional as F


def drop_path(x, drop_prob=0.0, training=False):
    if drop_prob == 0.0 or not training:
        return x
    keep_prob = 1 - drop_prob
    shape = (x.shape[0],) + (1,) * (x.ndim - 1)
    random_tensor = x.new_empty(shape).bernoulli_(keep_prob)
    random_tensor.div_(keep_prob)
    return x * random_tensor


class ConvNormAct(nn.Module):
    def __init__(self, in_chs, out_chs, kernel_size=1, stride=1, act_layer=nn.ReLU, apply_act=True):
        super().__init__()
        self.conv = nn.Conv2d(in_chs, out_chs, kernel_size, stride, kernel_size // 2, bias=False)
        self.bn = nn.BatchNorm2d(out_chs)
        self.act = act_layer(inplace=True) if apply_act else nn.Identity()

    def forward(self, x):
        return self.act(self.bn(self.conv(x)))


class Bottleneck(nn.Module):
    expansion = 4

    def __init__(self, inplanes, planes, stride=1, act_layer=nn.ReLU, drop_path_rate=0.0):
        super().__init__()
        outplanes = planes * self.expansion
        self.conv1 = ConvNormAct(inplanes, planes, 1, act_layer=act_layer)
        self.conv2 = ConvNormAct(planes, planes, 3, stride=stride, act_layer=act_layer)
        self.conv3 = ConvNormAct(planes, outplanes, 1, apply_act=False)
        self.act3 = act_layer(inplace=True)
        self.drop_path_rate = drop_path_rate
        self.downsample = None
        if stride != 1 or inplanes != outplanes:
            self.downsample = ConvNormAct(inplanes, outplanes, 1, stride=stride, apply_act=False)

    def zero_init_last(self):
        nn.init.zeros_(self.conv3.bn.weight)

    def forward(self, x):
        shortcut = x
        x = self.conv1(x)
        x = self.conv2(x)
        x = self.conv3(x)
        x = drop_path(x, self.drop_path_rate, self.training)
        if self.downsample is not None:
            shortcut = self.downsample(shortcut)
        x += shortcut
        x = self.act3(x)
        return x


class Stage(nn.Module):
    def __init__(self, inplanes, planes, depth, stride, dpr):
        super().__init__()
        self.blocks = nn.ModuleList()
        for i in range(depth):
            self.blocks.append(Bottleneck(inplanes, planes, stride if i == 0 else 1, drop_path_rate=dpr))
            inplanes = planes * Bottleneck.expansion
        for b in self.blocks:
            b.zero_init_last()

    def forward(self, x):
        for blk in self.blocks:
            x = blk(x)
        return x


def main():
    torch.manual_seed(0)
    stem = ConvNormAct(3, 8, 3)
    stage = Stage(8, 4, depth=2, stride=2, dpr=0.2)
    head = nn.Linear(16, 3)
    params = list(stem.parameters()) + list(stage.parameters()) + list(head.parameters())
    opt = torch.optim.SGD(params, lr=0.05)
    x = torch.randn(4, 3, 12, 12)
    y = torch.randint(0, 3, (4,))
    feats = stage(stem(x))
    loss = F.cross_entropy(head(feats.mean((2, 3))), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
