# Two-loss training with retain_graph: between the two backward calls a post-processing helper clamps the
# stored features in the outputs dict in place; the second backward still needs the tanh output
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(5, 6)
        self.cls = nn.Linear(6, 3)

    def forward(self, x):
        feat = torch.tanh(self.enc(x))
        return {"feat": feat, "logits": self.cls(feat)}


def postprocess(outs):
    outs["feat"].clamp_(min=0.0)  # culprit
    return outs


torch.manual_seed(0)
net = Net()
outs = net(torch.randn(4, 5))
ce = nn.functional.cross_entropy(outs["logits"], torch.tensor([0, 1, 2, 0]))
ce.backward(retain_graph=True)
outs = postprocess(outs)
reg = outs["logits"].pow(2).mean()
reg.backward()
print(net.enc.weight.grad.norm().item())
