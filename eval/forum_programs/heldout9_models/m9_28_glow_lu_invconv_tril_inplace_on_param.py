# source: Glow InvConv2dLU (rosinality/glow-pytorch model.py, openai/glow LU-decomposed 1x1 conv), triangular masks applied in place
# Glow flow step: ActNorm -> LU-decomposed invertible 1x1 conv whose weight() masks the lower/upper parameters in place.
import torch
import torch.nn as nn
import torch.nn.functional as F


class InvConv2dLU(nn.Module):
    def __init__(self, ch):
        super().__init__()
        q, _ = torch.linalg.qr(torch.randn(ch, ch))
        w_p, w_l, w_u = torch.linalg.lu(q)
        w_s = torch.diag(w_u)
        self.register_buffer("w_p", w_p)
        self.register_buffer("s_sign", torch.sign(w_s))
        self.register_buffer("l_eye", torch.eye(ch))
        self.w_l = nn.Parameter(w_l)
        self.w_s = nn.Parameter(torch.log(torch.abs(w_s)))
        self.w_u = nn.Parameter(torch.triu(w_u, 1))

    def calc_weight(self):
        self.w_l.tril_(-1)  # culprit
        self.w_u.triu_(1)
        weight = self.w_p @ (self.w_l + self.l_eye) @ (self.w_u + torch.diag(self.s_sign * torch.exp(self.w_s)))
        return weight.unsqueeze(2).unsqueeze(3)

    def forward(self, x):
        _, _, h, w = x.shape
        return F.conv2d(x, self.calc_weight()), h * w * self.w_s.sum()


class ActNorm(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.loc = nn.Parameter(torch.zeros(1, ch, 1, 1))
        self.logs = nn.Parameter(torch.zeros(1, ch, 1, 1))

    def forward(self, x):
        return (x + self.loc) * torch.exp(self.logs), x.shape[2] * x.shape[3] * self.logs.sum()


torch.manual_seed(0)
steps = nn.ModuleList([ActNorm(4), InvConv2dLU(4), ActNorm(4), InvConv2dLU(4)])
opt = torch.optim.Adam(steps.parameters(), lr=1e-3)
x = torch.randn(3, 4, 8, 8)
log_det = 0.0
for step in steps:
    x, ld = step(x)
    log_det = log_det + ld
nll = (0.5 * x.pow(2).sum((1, 2, 3)) - log_det).mean()
opt.zero_grad()
nll.backward()
opt.step()
print(nll.item())
