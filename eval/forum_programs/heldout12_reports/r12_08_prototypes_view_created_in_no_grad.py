# source: GitHub issue about "A view was created in no_grad mode and is being modified inplace with grad mode enabled" (slice of a Parameter taken in a @torch.no_grad() helper, normalised in place later)
# _active_prototypes() slices the Parameter under no_grad; forward() then divides that view in place with grad mode on
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class PrototypeClassifier(nn.Module):
    def __init__(self, in_dim=6, emb_dim=4, max_classes=8):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(in_dim, 16), nn.ReLU(), nn.Linear(16, emb_dim))
        self.prototypes = nn.Parameter(torch.randn(max_classes, emb_dim))
        self.n_active = 3
        self.temperature = 0.1

    @torch.no_grad()
    def _active_prototypes(self):
        # "no need to track the slicing itself"
        return self.prototypes[: self.n_active]

    def forward(self, x):
        z = F.normalize(self.encoder(x), dim=-1)
        protos = self._active_prototypes()
        protos.div_(protos.norm(dim=-1, keepdim=True))  # culprit
        return z @ protos.t() / self.temperature


model = PrototypeClassifier()
opt = torch.optim.SGD(model.parameters(), lr=0.05)
x = torch.randn(5, 6)
y = torch.tensor([0, 1, 2, 1, 0])
for step in range(2):
    opt.zero_grad()
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
    print(step, loss.item())
