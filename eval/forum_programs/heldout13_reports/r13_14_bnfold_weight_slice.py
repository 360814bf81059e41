# source: https://github.com/PingoLH/FCHarDNet/issues/61 ("RuntimeError: a view of a leaf Variable that requires grad is being used in an in-place operation- Using own dataset")
# Trains a small segmentation net briefly, then folds each BatchNorm into its conv for faster inference.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ConvLayer(nn.Sequential):
    def __init__(self, in_channels, out_channels, kernel=3, stride=1):
        super().__init__()
        self.add_module('conv', nn.Conv2d(in_channels, out_channels, kernel, stride, kernel // 2, bias=False))
        self.add_module('norm', nn.BatchNorm2d(out_channels))
        self.add_module('relu', nn.ReLU(inplace=True))


class TinySegNet(nn.Module):
    def __init__(self, n_classes=3):
        super().__init__()
        self.base = nn.Sequential(ConvLayer(3, 8, stride=2), ConvLayer(8, 16), ConvLayer(16, 16))
        self.final = nn.Conv2d(16, n_classes, 1)

    def forward(self, x):
        out = self.final(self.base(x))
        return F.interpolate(out, scale_factor=2, mode='bilinear', align_corners=False)


def fuse_conv_bn(conv, bn):
    cconv = nn.Conv2d(conv.in_channels, conv.out_channels, conv.kernel_size,
                      conv.stride, conv.padding, bias=True)
    std = torch.sqrt(bn.running_var + bn.eps)
    W = conv.weight * (bn.weight / std).reshape(-1, 1, 1, 1)
    b = bn.bias - bn.weight * bn.running_mean / std
    cconv.bias = nn.Parameter(b.detach())
    cconv.weight[:, :, :, :] = W[:, :, :, :]  # culprit
    return cconv


def fuse_model(model):
    for layer in model.base:
        if isinstance(layer, ConvLayer):
            layer.conv = fuse_conv_bn(layer.conv, layer.norm)
            layer.norm = nn.Identity()
    return model


model = TinySegNet()
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
for it in range(3):
    img = torch.randn(2, 3, 16, 16)
    lbl = torch.randint(0, 3, (2, 16, 16))
    loss = F.cross_entropy(model(img), lbl)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"train iter {it}: loss {loss.item():.4f}")

model.eval()
img = torch.randn(1, 3, 16, 16)
with torch.no_grad():
    ref = model(img)
fused = fuse_model(model)
with torch.no_grad():
    out = fused(img)
print("max abs diff after fusion:", (out - ref).abs().max().item())
