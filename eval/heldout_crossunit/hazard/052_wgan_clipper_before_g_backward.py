# Source: znxlwm/pytorch-generative-model-collections#31 (WGAN: "this is not performing gradient
# clipping but params value clipping", done after the critic's optimizer step). Here the clip is
# applied to the weights in place after the generator loss was computed through the critic.
# Unit kind: class -- a WeightClipper callable applied with D.apply() rewrites the critic's
# Linear weights, which the generator loss graph saved.
import torch
import torch.nn as nn

torch.manual_seed(0)


class WeightClipper:
    def __init__(self, c):
        self.c = c

    def __call__(self, module):
        if isinstance(module, nn.Linear):
            with torch.no_grad():
                w = module.weight
                w.clamp_(-self.c, self.c)  # culprit


G = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 4))
D = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
optD = torch.optim.RMSprop(D.parameters(), lr=5e-5)
optG = torch.optim.RMSprop(G.parameters(), lr=5e-5)
real, z = torch.randn(4, 4), torch.randn(4, 3)
d_loss = D(G(z).detach()).mean() - D(real).mean()
optD.zero_grad()
d_loss.backward()
optD.step()
errG = -D(G(z)).mean()
D.apply(WeightClipper(0.01))
optG.zero_grad()
errG.backward()
optG.step()
print("done")
