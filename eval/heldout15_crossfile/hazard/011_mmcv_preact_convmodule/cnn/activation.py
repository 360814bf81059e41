import torch.nn as nn

ACT_LAYERS = {"ReLU": nn.ReLU, "LeakyReLU": nn.LeakyReLU, "ELU": nn.ELU}


def build_activation_layer(cfg):
    cfg = dict(cfg)
    layer_type = cfg.pop("type")
    return ACT_LAYERS[layer_type](inplace=True, **cfg)  # culprit
