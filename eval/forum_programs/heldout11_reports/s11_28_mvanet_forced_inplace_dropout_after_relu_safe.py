# source: https://github.com/qianyu-dlut/MVANet/issues/2
# Fixed: only ReLU modules are switched to inplace; Dropout stays out of place so ReLU's output is preserved.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class CrossAttnBlock(nn.Module):
    def __init__(self, d_model=8, nhead=2, dim_ff=16, dropout=0.1):
        super().__init__()
        self.attn = nn.MultiheadAttention(d_model, nhead, dropout=0.0)
        self.linear1 = nn.Linear(d_model, dim_ff)
        self.linear2 = nn.Linear(dim_ff, d_model)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.dropout = nn.Dropout(dropout)
        self.activation = nn.ReLU()

    def forward(self, q, kv):
        attn_out, _ = self.attn(q, kv, kv)
        x = self.norm1(q + attn_out)
        h = self.linear1(x)
        h = self.activation(h)
        h = self.dropout(h)
        x = self.norm2(x + self.linear2(h))
        return x


class MVANetToy(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = CrossAttnBlock()
        self.head = nn.Linear(8, 1)
        for m in self.modules():
            if isinstance(m, nn.ReLU):
                m.inplace = True

    def forward(self, glb, loc):
        return self.head(self.block(glb, loc))


model = MVANetToy().train()
opt = torch.optim.Adam(model.parameters(), lr=1e-4)
glb = torch.randn(4, 2, 8)
loc = torch.randn(6, 2, 8)
target = torch.rand(4, 2, 1)
pred = model(glb, loc)
loss = F.binary_cross_entropy_with_logits(pred, target)
opt.zero_grad()
loss.backward()
opt.step()
print("done")
