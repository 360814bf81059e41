import torch.nn as nn


class Conv2dBlock(nn.Module):
    def __init__(self, cin, cout, ks, padding, activation="relu", activation_first=False):
        super().__init__()
        self.activation_first = activation_first
        self.pad = nn.ZeroPad2d(padding)
        self.conv = nn.Conv2d(cin, cout, ks)
        if activation == "relu":
            self.activation = nn.ReLU(inplace=False)
        elif activation == "lrelu":
            self.activation = nn.LeakyReLU(0.2, inplace=True)
        else:
            self.activation = None

    def forward(self, x):
        if self.activation_first:
            if self.activation is not None:
                x = self.activation(x)
            x = self.conv(self.pad(x))
        else:
            x = self.conv(self.pad(x))
            if self.activation is not None:
                x = self.activation(x)
        return x
