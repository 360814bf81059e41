# source: Attention U-Net GridAttentionBlock2D (ozan-oktay/Attention-Gated-Networks grid_attention_layer.py): relu(theta_x + phi_g, inplace=True)
# Attention U-Net gate with an in-place ReLU on the theta+phi sum and a bilinearly upsampled psi; skip rescaled out of place.
import torch
import torch.nn as nn
import torch.nn.functional as F


def conv_block(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
                         nn.Conv2d(cout, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class GridAttentionBlock(nn.Module):
    def __init__(self, in_ch, gate_ch, inter_ch):
        super().__init__()
        self.theta = nn.Conv2d(in_ch, inter_ch, 2, stride=2, bias=False)
        self.phi = nn.Conv2d(gate_ch, inter_ch, 1)
        self.psi = nn.Conv2d(inter_ch, 1, 1)
        self.W = nn.Sequential(nn.Conv2d(in_ch, in_ch, 1), nn.BatchNorm2d(in_ch))

    def forward(self, x, g):
        theta_x = self.theta(x)
        phi_g = F.interpolate(self.phi(g), size=theta_x.shape[2:], mode="bilinear", align_corners=False)
        f = F.relu(theta_x + phi_g, inplace=True)
        sigm_psi_f = torch.sigmoid(self.psi(f))
        sigm_psi_f = F.interpolate(sigm_psi_f, size=x.shape[2:], mode="bilinear", align_corners=False)
        y = sigm_psi_f.expand_as(x) * x
        return self.W(y), sigm_psi_f


class AttUNet(nn.Module):
    def __init__(self, ch=(8, 16, 32), n_classes=2):
        super().__init__()
        self.enc = nn.ModuleList([conv_block(3 if i == 0 else ch[i - 1], c) for i, c in enumerate(ch)])
        self.pool = nn.MaxPool2d(2)
        self.att = nn.ModuleList([GridAttentionBlock(ch[i - 1], ch[i], ch[i - 1]) for i in range(len(ch) - 1, 0, -1)])
        self.dec = nn.ModuleList([conv_block(ch[i - 1] + ch[i], ch[i - 1]) for i in range(len(ch) - 1, 0, -1)])
        self.out = nn.Conv2d(ch[0], n_classes, 1)

    def forward(self, x):
        skips = []
        for i, enc in enumerate(self.enc):
            x = enc(x if i == 0 else self.pool(x))
            skips.append(x)
        d = skips.pop()
        for att, dec in zip(self.att, self.dec):
            skip = skips.pop()
            gated, _ = att(skip, d)
            d = F.interpolate(d, scale_factor=2, mode="bilinear", align_corners=False)
            d = dec(torch.cat((gated, d), dim=1))
        return self.out(d)


torch.manual_seed(0)
model = AttUNet()
opt = torch.optim.Adam(model.parameters(), lr=1e-4)
img, target = torch.randn(2, 3, 16, 16), torch.randint(0, 2, (2, 16, 16))
for _ in range(2):
    loss = F.cross_entropy(model(img), target)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(loss.item())
