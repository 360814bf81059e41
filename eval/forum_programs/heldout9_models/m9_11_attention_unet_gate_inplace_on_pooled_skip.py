# source: Attention U-Net (ozan-oktay/Attention-Gated-Networks, LeeJunHyun/Image_Segmentation Attention_block) with `x * psi` done as x.mul_(psi)
# Attention U-Net whose attention gate rescales the encoder skip in place; that skip already fed the max-pool.
import torch
import torch.nn as nn
import torch.nn.functional as F


def conv_block(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
                         nn.Conv2d(cout, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class AttentionBlock(nn.Module):
    def __init__(self, f_g, f_l, f_int):
        super().__init__()
        self.W_g = nn.Sequential(nn.Conv2d(f_g, f_int, 1), nn.BatchNorm2d(f_int))
        self.W_x = nn.Sequential(nn.Conv2d(f_l, f_int, 1), nn.BatchNorm2d(f_int))
        self.psi = nn.Sequential(nn.Conv2d(f_int, 1, 1), nn.BatchNorm2d(1), nn.Sigmoid())

    def forward(self, g, x):
        psi = self.psi(F.relu(self.W_g(g) + self.W_x(x)))
        return x.mul_(psi)  # culprit


class AttUNet(nn.Module):
    def __init__(self, ch=(8, 16, 32), n_classes=2):
        super().__init__()
        self.enc = nn.ModuleList([conv_block(3 if i == 0 else ch[i - 1], c) for i, c in enumerate(ch)])
        self.pool = nn.MaxPool2d(2)
        self.up = nn.ModuleList([nn.ConvTranspose2d(ch[i], ch[i - 1], 2, 2) for i in range(len(ch) - 1, 0, -1)])
        self.att = nn.ModuleList([AttentionBlock(ch[i - 1], ch[i - 1], ch[i - 1] // 2) for i in range(len(ch) - 1, 0, -1)])
        self.dec = nn.ModuleList([conv_block(2 * ch[i - 1], ch[i - 1]) for i in range(len(ch) - 1, 0, -1)])
        self.out = nn.Conv2d(ch[0], n_classes, 1)

    def forward(self, x):
        skips = []
        for i, enc in enumerate(self.enc):
            x = enc(x if i == 0 else self.pool(x))
            skips.append(x)
        d = skips.pop()
        for up, att, dec in zip(self.up, self.att, self.dec):
            d = up(d)
            s = att(g=d, x=skips.pop())
            d = dec(torch.cat((s, d), dim=1))
        return self.out(d)


torch.manual_seed(0)
model = AttUNet()
opt = torch.optim.Adam(model.parameters(), lr=1e-4)
img, target = torch.randn(2, 3, 16, 16), torch.randint(0, 2, (2, 16, 16))
loss = F.cross_entropy(model(img), target)
opt.zero_grad()
loss.backward()
opt.step()
print(loss.item())
