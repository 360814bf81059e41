# Source: znxlwm/pytorch-generative-model-collections#31 (WGAN clips the critic's parameter values
# right after its optimizer step, before the generator pass).
# Clean look-alike of hazard/052.
# Unit kind: class.
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
                w.clamp_(-self.c, self.c)


G = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 4))
D = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
optD = torch.optim.RMSprop(D.parameters(), lr=5e-5)
optG = torch.optim.RMSprop(G.parameters(), lr=5e-5)
real, z = torch.randn(4, 4), torch.randn(4, 3)
d_loss = D(G(z).detach()).mean() - D(real).mean()
optD.zero_grad()
d_loss.backward()
optD.step()
D.apply(WeightClipper(0.01))
errG = -D(G(z)).mean()
optG.zero_grad()
errG.backward()
optG.step()
print("done")
