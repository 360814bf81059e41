# source: in-place activation Functions in the style of inplace_abn / "InplaceLeakyReLU with ctx.mark_dirty" gists, post-activation block
# Residual MLP block that applies a mark_dirty custom LeakyReLU in place only to fresh Linear outputs, never to the block input.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class InplaceLeakyReLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, slope):
        x.mul_(torch.where(x < 0, slope, 1.0))
        ctx.mark_dirty(x)
        ctx.save_for_backward(x)
        ctx.slope = slope
        return x

    @staticmethod
    def backward(ctx, grad_out):
        y, = ctx.saved_tensors
        return grad_out * torch.where(y < 0, ctx.slope, 1.0), None


class PostActBlock(nn.Module):
    def __init__(self, dim_in, dim_out, slope=0.1):
        super().__init__()
        self.shortcut = nn.Linear(dim_in, dim_out, bias=False)
        self.fc1 = nn.Linear(dim_in, dim_out)
        self.fc2 = nn.Linear(dim_out, dim_out)
        self.slope = slope

    def forward(self, x):
        skip = self.shortcut(x)
        out = InplaceLeakyReLU.apply(self.fc1(x), self.slope)
        out = self.fc2(out)
        return InplaceLeakyReLU.apply(out + skip, self.slope)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Linear(8, 16)
        self.blocks = nn.Sequential(PostActBlock(16, 24), PostActBlock(24, 24))
        self.head = nn.Linear(24, 3)

    def forward(self, x):
        return self.head(self.blocks(self.stem(x)))


model = Net()
opt = torch.optim.SGD(model.parameters(), lr=0.05)
for step in range(3):
    x, y = torch.randn(10, 8), torch.randint(0, 3, (10,))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, loss.item())
