# source: "memory-efficient Swish" custom autograd.Function (EfficientNet-PyTorch MemoryEfficientSwish) followed by in-place dropout
# MLP classifier using a custom SiLU Function that saves only its input; the caller drops out the returned activation in place.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class SwishFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * torch.sigmoid(x)

    @staticmethod
    def backward(ctx, grad_out):
        x, = ctx.saved_tensors
        s = torch.sigmoid(x)
        return grad_out * (s * (1 + x * (1 - s)))


class SwishMLP(nn.Module):
    def __init__(self, in_dim=16, hidden=32, n_classes=5, p_drop=0.2):
        super().__init__()
        self.fc1 = nn.Linear(in_dim, hidden)
        self.fc2 = nn.Linear(hidden, n_classes)
        self.p_drop = p_drop

    def forward(self, x):
        h = SwishFn.apply(self.fc1(x))
        h = F.dropout(h, self.p_drop, training=self.training, inplace=True)
        return self.fc2(h)


model = SwishMLP()
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
for step in range(4):
    x, y = torch.randn(16, 16), torch.randint(0, 5, (16,))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, loss.item())
