# source: https://github.com/Jee-King/TSAN/issues/3
# TSAN super-resolution: CSB block with the fix from the issue, out = x.clone() before writing quadrants into out[..] slices
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def default_conv(in_channels, out_channels, kernel_size, bias=True):
    return nn.Conv2d(in_channels, out_channels, kernel_size, padding=(kernel_size // 2), bias=bias)


class MeanShift(nn.Conv2d):
    def __init__(self, rgb_range, rgb_mean, rgb_std, sign=-1):
        super().__init__(3, 3, kernel_size=1)
        std = torch.Tensor(rgb_std)
        self.weight.data = torch.eye(3).view(3, 3, 1, 1) / std.view(3, 1, 1, 1)
        self.bias.data = sign * rgb_range * torch.Tensor(rgb_mean) / std
        for p in self.parameters():
            p.requires_grad = False


class Upsampler(nn.Sequential):
    def __init__(self, conv, scale, n_feats):
        m = [conv(n_feats, 4 * n_feats, 3), nn.PixelShuffle(2)] if scale == 2 else []
        super().__init__(*m)


class make_dense(nn.Module):
    def __init__(self, n_channels, n_feats=16, i=0):
        super().__init__()
        s = i + 1 if i < 3 else i - 2 * (i - 3)
        self.conv_1_1 = nn.Conv2d(n_channels, n_feats, 1, padding=0, stride=1)
        self.conv_1_2 = nn.Conv2d(n_feats * 2, n_feats, 1, padding=0, stride=1)
        self.conv_3_1 = nn.Conv2d(n_feats, n_feats, 3, padding=s, stride=1, dilation=s)
        self.conv_3_2 = nn.Conv2d(n_feats, n_feats, 3, padding=s, stride=1, dilation=s)
        self.relu = nn.ReLU(inplace=True)

    def forward(self, x):
        out1x1 = self.relu(self.conv_1_1(x))
        input_1 = self.relu(self.conv_3_1(out1x1))
        input_2 = self.relu(self.conv_3_2(out1x1))
        output = torch.cat([input_1, input_2], 1)
        output = self.relu(self.conv_1_2(output))
        output = torch.cat([output, x], 1)
        return output


class DRB(nn.Module):
    def __init__(self, n_channels, n_denselayer=2, n_feats=16):
        super().__init__()
        nChannels_ = n_channels
        modules = []
        for i in range(n_denselayer):
            modules.append(make_dense(nChannels_, n_feats, i))
            nChannels_ += n_feats
        self.dense_layers = nn.Sequential(*modules)
        self.conv_1x1 = nn.Conv2d(nChannels_, n_feats, kernel_size=1, padding=0, bias=False)

    def forward(self, x):
        out = self.dense_layers(x)
        out = self.conv_1x1(out)
        return x + out


class CSB(nn.Module):
    def __init__(self, n_feats):
        super().__init__()
        self.conv1 = nn.Conv2d(n_feats * 4, n_feats * 4, kernel_size=1, padding=0, bias=False)

    def forward(self, x):
        h2, w2 = x.size(2) // 2, x.size(3) // 2
        quads = [(slice(0, h2), slice(0, w2)), (slice(h2, None), slice(0, w2)),
                 (slice(0, h2), slice(w2, None)), (slice(h2, None), slice(w2, None))]
        f_all = torch.cat([x[:, :, hs, ws] for hs, ws in quads], 1)
        f_all = self.conv1(f_all)
        c = f_all.size(1) // 4
        out = x.clone()
        for k, (hs, ws) in enumerate(quads):
            out[:, :, hs, ws] = f_all[:, k * c:(k + 1) * c, :, :]
        return out


class First_Order(nn.Module):
    def __init__(self):
        super().__init__()
        self.adaptive = nn.AdaptiveAvgPool2d((1, 1))

    def forward(self, x):
        first_c = torch.sigmoid(self.adaptive(x)) * x
        xh = x.permute(0, 2, 1, 3)
        first_h = (torch.sigmoid(self.adaptive(xh)) * xh).permute(0, 2, 1, 3)
        xw = x.permute(0, 3, 2, 1)
        first_w = (torch.sigmoid(self.adaptive(xw)) * xw).permute(0, 3, 2, 1)
        return first_c + first_h + first_w + x


class MCAB(nn.Module):
    def __init__(self, n_channels, n_denselayer=2, n_feats=16):
        super().__init__()
        self.drb = DRB(n_channels, n_denselayer, n_feats)
        self.csb = CSB(n_feats)
        self.first = First_Order()
        self.conv3 = nn.Conv2d(n_feats, n_feats, kernel_size=3, padding=1, bias=False)

    def forward(self, x):
        down_b = self.drb(x)
        top_b = self.csb(x)
        top_b = self.first(top_b)
        top_b = torch.sigmoid(self.conv3(top_b))
        return down_b * top_b


class TSAN(nn.Module):
    def __init__(self, n_feats=16, scale=2, n_colors=3, rgb_range=1):
        super().__init__()
        rgb_mean = (0.4488, 0.4371, 0.4040)
        rgb_std = (1.0, 1.0, 1.0)
        self.sub_mean = MeanShift(rgb_range, rgb_mean, rgb_std)
        self.first_conv = nn.Conv2d(n_colors, n_feats, 1, padding=0, stride=1)
        self.body1 = MCAB(n_feats, 2, n_feats)
        self.body2 = MCAB(n_feats, 2, n_feats)
        self.tail = nn.Sequential(nn.Conv2d(n_feats * 2, n_feats, 1), default_conv(n_feats, n_feats, 3))
        self.up = Upsampler(default_conv, scale, n_feats)
        self.output1 = default_conv(n_feats, n_colors, 1)
        self.add_mean = MeanShift(rgb_range, rgb_mean, rgb_std, 1)
        self.relu = nn.ReLU(inplace=True)

    def forward(self, x):
        x = self.sub_mean(x)
        first_out = self.relu(self.first_conv(x))
        out_dense1 = self.body1(first_out)
        out_dense2 = self.body2(out_dense1)
        dense = torch.cat([out_dense1, out_dense2], 1)
        out = self.tail(dense)
        out = out + first_out
        out = self.up(out)
        out = self.output1(out)
        return self.add_mean(out)


model = TSAN()
optimizer = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=1e-4)
lr = torch.rand(2, 3, 16, 16)
hr = torch.rand(2, 3, 32, 32)
sr = model(lr)
loss = F.l1_loss(sr, hr)
optimizer.zero_grad()
loss.backward()
optimizer.step()
print("loss", loss.item())
