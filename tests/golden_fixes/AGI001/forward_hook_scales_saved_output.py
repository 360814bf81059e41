"""A forward hook that edits its module's output in place. A hook runs right after the module's forward,
so the sigmoid has already saved its result for backward; ``output.mul_`` bumps that saved tensor and the
backward raises. Returning ``output * temperature`` from the hook replaces the output instead."""
import torch
import torch.nn as nn


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 4)
        self.act = nn.Sigmoid()

    def forward(self, x):
        return self.act(self.fc(x))


def temperature_hook(module, inputs, output):
    output = output.clone()
    output.mul_(0.5)  # expect: AGI001
    return output


def run():
    torch.manual_seed(0)
    model = Classifier()
    model.act.register_forward_hook(temperature_hook)
    x = torch.randn(16, 8)
    target = torch.rand(16, 4) * 0.5
    probs = model(x)
    loss = nn.functional.mse_loss(probs, target)
    loss.backward()
    return probs


if __name__ == "__main__":
    print(run())
