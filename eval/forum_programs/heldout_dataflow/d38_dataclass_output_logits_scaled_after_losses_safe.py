# Dataclass output: after the softmax and the cross-entropy were computed, the logits are divided by a
# temperature in place for calibration logging. softmax and log_softmax save their results, not the
# logits.
import torch
import torch.nn as nn
import torch.nn.functional as F
from dataclasses import dataclass


@dataclass
class ClsOutput:
    logits: torch.Tensor
    probs: torch.Tensor


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(6, 4)

    def forward(self, x):
        logits = self.fc(x)
        return ClsOutput(logits=logits, probs=logits.softmax(-1))


torch.manual_seed(0)
model = Classifier()
y = torch.tensor([0, 1, 2, 3, 0])
out = model(torch.randn(5, 6))
loss = F.cross_entropy(out.logits, y) + 0.1 * out.probs.pow(2).sum(-1).mean()
out.logits.div_(1.5)
loss.backward()
print(model.fc.weight.grad.norm().item())
