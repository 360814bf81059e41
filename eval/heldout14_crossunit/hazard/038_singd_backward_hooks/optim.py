import torch
import torch.nn as nn


class KFACPreconditioner(torch.optim.SGD):
    """Installs full backward hooks on every Conv2d/Linear to collect output gradients."""

    def __init__(self, model, lr=0.1):
        super().__init__(model.parameters(), lr=lr)
        self.grad_outputs = {}
        for name, module in model.named_modules():
            if isinstance(module, (nn.Conv2d, nn.Linear)):
                module.register_full_backward_hook(self._make_hook(name))

    def _make_hook(self, name):
        def hook(module, grad_input, grad_output):
            self.grad_outputs[name] = grad_output[0].detach()
        return hook
