"""A diffusion UNet's residual blocks (the DDPM / diffusers shape) take ``act_layer=nn.SiLU`` and an
``inplace=True`` flag, and build ``self.act = act_layer(inplace=inplace)``; the model builds every block
with the defaults. Each block applies its activation to the time embedding, which the UNet hands to all
of them: the first block's projection saved the activated embedding (a Linear keeps its input), and the
next block's in-place SiLU overwrites that very tensor."""
import torch
import torch.nn as nn


class ResnetBlock(nn.Module):
    def __init__(self, ch, temb_ch, act_layer=nn.SiLU, inplace=True):
        super().__init__()
        self.conv = nn.Conv2d(ch, ch, 3, padding=1)
        self.temb_proj = nn.Linear(temb_ch, ch)
        self.act = act_layer()

    def forward(self, x, temb):
        h = self.conv(x)
        return x + h + self.temb_proj(self.act(temb))[:, :, None, None]  # expect: AGI001


class TinyUNet(nn.Module):
    def __init__(self, ch=4, temb_ch=8):
        super().__init__()
        self.time_mlp = nn.Linear(temb_ch, temb_ch)
        self.down = ResnetBlock(ch, temb_ch)
        self.up = ResnetBlock(ch, temb_ch)

    def forward(self, x, t_features):
        temb = self.time_mlp(t_features)
        return self.up(self.down(x, temb), temb)


def run():
    torch.manual_seed(0)
    unet = TinyUNet()
    out = unet(torch.randn(2, 4, 6, 6), torch.randn(2, 8))
    out.mean().backward()
    return out


if __name__ == "__main__":
    print(run())
