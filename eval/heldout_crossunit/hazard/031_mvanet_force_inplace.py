# Source: qianyu-dlut/MVANet#2 ("for m in self.modules(): if isinstance(m, nn.ReLU) or
# isinstance(m, nn.Dropout): m.inplace = True" -> "... output 0 of ReluBackward0" style error).
# Unit kind: class -- the top-level model flips modules of other classes to in-place; the
# attention class's softmax output is then rewritten by its dropout.
import torch
import torch.nn as nn

torch.manual_seed(0)


class CrossAttention(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.q, self.k, self.v = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)
        self.attn_drop = nn.Dropout(0.1)

    def forward(self, x, ctx):
        attn = torch.softmax(self.q(x) @ self.k(ctx).transpose(-1, -2), dim=-1)
        attn = self.attn_drop(attn)
        return attn @ self.v(ctx)


class MVANetLike(nn.Module):
    def __init__(self, d=8):
        super().__init__()
        self.attn = CrossAttention(d)
        self.ffn = nn.Sequential(nn.Linear(d, d), nn.ReLU(), nn.Linear(d, d))
        for m in self.modules():
            if isinstance(m, nn.ReLU) or isinstance(m, nn.Dropout):
                m.inplace = True  # culprit

    def forward(self, x, ctx):
        return self.ffn(self.attn(x, ctx))


MVANetLike()(torch.randn(2, 3, 8), torch.randn(2, 4, 8)).sum().backward()
print("done")
