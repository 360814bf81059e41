# source: timm convnext.py / layers/drop.py (ConvNeXt block, LayerNorm2d, LayerScale with inplace option, DropPath)
# Tiny ConvNeXt with stochastic depth and in-place layer scale, trained for a couple of AdamW steps.
import torch
import torch.nn as nn
import torch.nn.functional as F
from functools import partial


def drop_path(x, drop_prob=0.0, training=False, scale_by_keep=True):
    if drop_prob == 0.0 or not training:
        return x
    keep_prob = 1 - drop_prob
    shape = (x.shape[0],) + (1,) * (x.ndim - 1)
    random_tensor = x.new_empty(shape).bernoulli_(keep_prob)
    if keep_prob > 0.0 and scale_by_keep:
        random_tensor.div_(keep_prob)
    return x * random_tensor


class DropPath(nn.Module):
    def __init__(self, drop_prob=0.0):
        super().__init__()
        self.drop_prob = drop_prob

    def forward(self, x):
        return drop_path(x, self.drop_prob, self.training)


class LayerScale(nn.Module):
    def __init__(self, dim, init_values=1e-5, inplace=False):
        super().__init__()
        self.inplace = inplace
        self.gamma = nn.Parameter(init_values * torch.ones(dim))

    def forward(self, x):
        return x.mul_(self.gamma) if self.inplace else x * self.gamma


class LayerNorm2d(nn.LayerNorm):
    def forward(self, x):
        x = x.permute(0, 2, 3, 1)
        x = F.layer_norm(x, self.normalized_shape, self.weight, self.bias, self.eps)
        return x.permute(0, 3, 1, 2)


class ConvNeXtBlock(nn.Module):
    def __init__(self, dim, drop_path=0.0, ls_init_value=1e-6, ls_inplace=True, act_layer=nn.GELU, mlp_ratio=4):
        super().__init__()
        self.conv_dw = nn.Conv2d(dim, dim, kernel_size=7, padding=3, groups=dim)
        self.norm = nn.LayerNorm(dim, eps=1e-6)
        self.fc1 = nn.Linear(dim, mlp_ratio * dim)
        self.act = act_layer()
        self.fc2 = nn.Linear(mlp_ratio * dim, dim)
        self.ls = LayerScale(dim, ls_init_value, inplace=ls_inplace)
        self.drop_path = DropPath(drop_path) if drop_path > 0.0 else nn.Identity()

    def forward(self, x):
        shortcut = x
        x = self.conv_dw(x)
        x = x.permute(0, 2, 3, 1)
        x = self.fc2(self.act(self.fc1(self.norm(x))))
        x = self.ls(x)
        x = x.permute(0, 3, 1, 2)
        return self.drop_path(x) + shortcut


class ConvNeXt(nn.Module):
    def __init__(self, num_classes=10, depths=(2, 2), dims=(16, 32), drop_path_rate=0.2):
        super().__init__()
        norm_layer = partial(LayerNorm2d, eps=1e-6)
        self.stem = nn.Sequential(nn.Conv2d(3, dims[0], kernel_size=4, stride=4), norm_layer(dims[0]))
        dp_rates = torch.linspace(0, drop_path_rate, sum(depths)).split(list(depths))
        stages, prev = [], dims[0]
        for i, (depth, dim) in enumerate(zip(depths, dims)):
            down = nn.Identity() if i == 0 else nn.Sequential(norm_layer(prev), nn.Conv2d(prev, dim, 2, stride=2))
            blocks = [ConvNeXtBlock(dim, drop_path=float(dp_rates[i][j])) for j in range(depth)]
            stages.append(nn.Sequential(down, *blocks))
            prev = dim
        self.stages = nn.Sequential(*stages)
        self.head_norm = nn.LayerNorm(prev)
        self.head = nn.Linear(prev, num_classes)
        self.apply(self._init_weights)

    @staticmethod
    def _init_weights(m):
        if isinstance(m, (nn.Conv2d, nn.Linear)):
            nn.init.trunc_normal_(m.weight, std=0.02)
            nn.init.zeros_(m.bias)

    def forward(self, x):
        x = self.stages(self.stem(x))
        return self.head(self.head_norm(x.mean((2, 3))))


torch.manual_seed(0)
model = ConvNeXt()
opt = torch.optim.AdamW(model.parameters(), lr=4e-3, weight_decay=0.05)
for step in range(2):
    x, y = torch.randn(4, 3, 32, 32), torch.randint(0, 10, (4,))
    loss = F.cross_entropy(model(x), y, label_smoothing=0.1)
    opt.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
    opt.step()
    print(step, loss.item())
