# source: https://github.com/PingoLH/FCHarDNet/issues/61 ("RuntimeError: a view of a leaf Variable that requires grad is being used in an in-place operation- Using own dataset")
# Folds BatchNorm into the preceding depthwise/pointwise convs of a small classifier, then fine-tunes the fused model.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def conv_bn(inp, oup, k=3, stride=1, groups=1):
    return nn.Sequential(nn.Conv2d(inp, oup, k, stride, k // 2, groups=groups, bias=False),
                         nn.BatchNorm2d(oup), nn.ReLU6(inplace=True))


class MobileLite(nn.Module):
    def __init__(self, num_classes=5):
        super().__init__()
        self.features = nn.Sequential(
            conv_bn(3, 8, stride=2),
            conv_bn(8, 8, groups=8), conv_bn(8, 16, k=1),
            conv_bn(16, 16, stride=2, groups=16), conv_bn(16, 32, k=1),
        )
        self.classifier = nn.Linear(32, num_classes)

    def forward(self, x):
        return self.classifier(self.features(x).mean((2, 3)))


@torch.no_grad()
def fuse_conv_bn(conv, bn):
    fused = nn.Conv2d(conv.in_channels, conv.out_channels, conv.kernel_size, conv.stride,
                      conv.padding, groups=conv.groups, bias=True)
    std = torch.sqrt(bn.running_var + bn.eps)
    fused.weight.copy_(conv.weight * (bn.weight / std).reshape(-1, 1, 1, 1))
    fused.bias.copy_(bn.bias - bn.weight * bn.running_mean / std)
    return fused


def fuse_model(model):
    for block in model.features:
        block[0] = fuse_conv_bn(block[0], block[1])
        block[1] = nn.Identity()
    return model


def train(model, steps, lr):
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    for it in range(steps):
        x, y = torch.randn(8, 3, 16, 16), torch.randint(0, 5, (8,))
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


model = MobileLite()
print("pre-train loss", train(model, 3, 0.05))
model.eval()
x = torch.randn(2, 3, 16, 16)
with torch.no_grad():
    ref = model(x)
fused = fuse_model(model)
with torch.no_grad():
    print("fusion max abs diff", (fused(x) - ref).abs().max().item())
print("fused fine-tune loss", train(fused, 2, 0.01))
