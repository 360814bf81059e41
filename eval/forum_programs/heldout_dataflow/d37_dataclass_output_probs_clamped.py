# Model returns a dataclass of tensors; the loss function clamps the probabilities in place before log
import torch
import torch.nn as nn
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


def nll(out: ClsOutput, y):
    out.probs.clamp_(min=1e-6)  # culprit
    return -out.probs.log().gather(1, y[:, None]).mean()


torch.manual_seed(0)
model = Classifier()
out = model(torch.randn(5, 6))
nll(out, torch.tensor([0, 1, 2, 3, 0])).backward()
print(model.fc.weight.grad.norm().item())
