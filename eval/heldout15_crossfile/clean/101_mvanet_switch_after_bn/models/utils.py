import torch.nn as nn


def make_relu_inplace(model):
    """Save memory: switch every ReLU / Dropout of the model to in-place."""
    for m in model.modules():
        if isinstance(m, (nn.ReLU, nn.Dropout)):
            m.inplace = True
    return model
