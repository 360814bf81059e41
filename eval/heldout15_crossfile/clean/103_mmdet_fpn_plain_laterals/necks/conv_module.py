import torch.nn as nn

ACTIVATION_LAYERS = {"ReLU": nn.ReLU, "LeakyReLU": nn.LeakyReLU, "GELU": nn.GELU}


def build_activation_layer(cfg):
    cfg = dict(cfg)
    layer_type = cfg.pop("type")
    return ACTIVATION_LAYERS[layer_type](**cfg)


class ConvModule(nn.Module):
    """conv -> (norm) -> (act), in the mmcv layout."""

    def __init__(self, cin, cout, k, padding=0, norm=False, act_cfg=None):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, k, padding=padding)
        self.norm = nn.BatchNorm2d(cout) if norm else None
        self.activate = build_activation_layer(act_cfg) if act_cfg is not None else None

    def forward(self, x):
        x = self.conv(x)
        if self.norm is not None:
            x = self.norm(x)
        if self.activate is not None:
            x = self.activate(x)
        return x
