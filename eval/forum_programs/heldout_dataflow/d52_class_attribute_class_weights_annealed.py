# Class-balanced loss with the class weights kept as a class attribute tensor; an annealing method
# updates them in place between the forward loss and backward. The multiply saved the weights.
import torch
import torch.nn as nn
import torch.nn.functional as F


class BalancedLoss:
    weights = torch.tensor([1.0, 2.0, 4.0])

    @classmethod
    def anneal(cls, rate=0.5):
        cls.weights.pow_(rate)  # culprit

    def __call__(self, logits, y):
        nll = F.cross_entropy(logits, y, reduction="none")
        return (nll * BalancedLoss.weights[y]).mean() + (logits.softmax(-1) * BalancedLoss.weights).sum(-1).mean()


torch.manual_seed(0)
model = nn.Linear(4, 3)
crit = BalancedLoss()
loss = crit(model(torch.randn(6, 4)), torch.tensor([0, 1, 2, 2, 1, 0]))
BalancedLoss.anneal()
loss.backward()
print(model.weight.grad.norm().item())
