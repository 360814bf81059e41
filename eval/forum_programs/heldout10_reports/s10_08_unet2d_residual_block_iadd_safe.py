# source: https://github.com/fepegar/unet/issues/36
# unet.UNet2D(residual=True) after PR #37: EncodingBlock adds the residual projection out-of-place, x = x + connection
import torch
import torch.nn as nn

torch.manual_seed(0)


class ConvolutionalBlock(nn.Module):
    def __init__(self, in_channels, out_channels, normalization="batch", kernel_size=3,
                 activation="ReLU", padding=1):
        super().__init__()
        block = nn.ModuleList()
        conv_layer = nn.Conv2d(in_channels, out_channels, kernel_size, padding=padding)
        block.append(conv_layer)
        if normalization is not None:
            block.append(nn.BatchNorm2d(out_channels))
        if activation is not None:
            block.append(getattr(nn, activation)())
        self.block = nn.Sequential(*block)

    def forward(self, x):
        return self.block(x)


class EncodingBlock(nn.Module):
    def __init__(self, in_channels, out_channels_first, residual=False, downsampling=True):
        super().__init__()
        self.residual = residual
        self.conv1 = ConvolutionalBlock(in_channels, out_channels_first)
        self.conv2 = ConvolutionalBlock(out_channels_first, out_channels_first)
        if residual:
            self.conv_residual = ConvolutionalBlock(
                in_channels, self.conv2.block[0].out_channels, kernel_size=1, padding=0,
                normalization=None, activation=None)
        self.downsample = nn.MaxPool2d(2) if downsampling else None
        self.out_channels = out_channels_first

    def forward(self, x):
        if self.residual:
            connection = self.conv_residual(x)
            x = self.conv1(x)
            x = self.conv2(x)
            x = x + connection
        else:
            x = self.conv1(x)
            x = self.conv2(x)
        if self.downsample is None:
            return x
        skip_connection = x
        x = self.downsample(x)
        return x, skip_connection


class DecodingBlock(nn.Module):
    def __init__(self, in_channels_skip, residual=False):
        super().__init__()
        self.residual = residual
        self.upsample = nn.ConvTranspose2d(in_channels_skip * 2, in_channels_skip, 2, stride=2)
        in_channels_first = in_channels_skip * 2
        self.conv1 = ConvolutionalBlock(in_channels_first, in_channels_skip)
        self.conv2 = ConvolutionalBlock(in_channels_skip, in_channels_skip)
        if residual:
            self.conv_residual = ConvolutionalBlock(
                in_channels_first, in_channels_skip, kernel_size=1, padding=0,
                normalization=None, activation=None)

    def forward(self, skip_connection, x):
        x = self.upsample(x)
        x = torch.cat((skip_connection, x), dim=1)
        if self.residual:
            connection = self.conv_residual(x)
            x = self.conv1(x)
            x = self.conv2(x)
            x = x + connection
        else:
            x = self.conv1(x)
            x = self.conv2(x)
        return x


class UNet2D(nn.Module):
    def __init__(self, in_channels=3, out_classes=10, num_encoding_blocks=2,
                 out_channels_first_layer=8, residual=False):
        super().__init__()
        self.encoders = nn.ModuleList()
        channels = in_channels
        out_first = out_channels_first_layer
        for _ in range(num_encoding_blocks - 1):
            block = EncodingBlock(channels, out_first, residual=residual)
            self.encoders.append(block)
            channels = out_first
            out_first *= 2
        self.bottom_block = EncodingBlock(channels, out_first, residual=residual, downsampling=False)
        self.decoders = nn.ModuleList()
        for _ in range(num_encoding_blocks - 1):
            self.decoders.append(DecodingBlock(out_first // 2, residual=residual))
            out_first //= 2
        self.classifier = nn.Conv2d(out_first, out_classes, 1)

    def forward(self, x):
        skips = []
        for encoder in self.encoders:
            x, skip = encoder(x)
            skips.append(skip)
        x = self.bottom_block(x)
        for decoder, skip in zip(self.decoders, reversed(skips)):
            x = decoder(skip, x)
        return self.classifier(x)


loss_fn = torch.nn.BCEWithLogitsLoss()
inp = torch.ones([8, 3, 24, 24])
targets = torch.ones([8, 10, 24, 24])
unet_model = UNet2D(in_channels=3, out_classes=10, residual=True, num_encoding_blocks=2)
out = unet_model(inp)
loss = loss_fn(out, targets)
loss.backward()
print("loss", loss.item())
