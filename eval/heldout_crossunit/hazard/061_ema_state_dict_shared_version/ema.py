import copy
import math

import torch


class ModelEMA:
    """Shape of ultralytics' ModelEMA.update: iterate ema.state_dict() and scale in place."""

    def __init__(self, model, decay=0.9999):
        self.ema = copy.deepcopy(model)
        self.updates = 0
        self.decay = lambda x: decay * (1 - math.exp(-x / 2000))

    def update(self, model):
        with torch.no_grad():
            self.updates += 1
            d = self.decay(self.updates)
            msd = model.state_dict()
            for k, v in self.ema.state_dict().items():
                if v.dtype.is_floating_point:
                    v *= d  # culprit
                    v += (1.0 - d) * msd[k].detach()
