import torch.nn as nn


def attach_activation_clamp(model, max_val=1.0):
    """Clip ReLU outputs in place, the way a calibration pass emulates a bounded activation."""

    def clamp_hook(module, inputs, output):
        return output.clamp(max=max_val)

    return [m.register_forward_hook(clamp_hook) for m in model.modules() if isinstance(m, nn.ReLU)]
