# source: class-incremental learning "Weight Aligning" (Zhao et al. 2020, WA), as in the official repo's weight_align under no_grad
# Incremental classifier that rescales the new-class weight rows by the old/new norm ratio inside a no_grad method after training.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class IncrementalNet(nn.Module):
    def __init__(self, in_dim=16, feat_dim=32, n_old=4, n_new=3):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(in_dim, feat_dim), nn.ReLU())
        self.fc = nn.Linear(feat_dim, n_old + n_new, bias=False)
        self.n_old = n_old

    def forward(self, x):
        return self.fc(self.backbone(x))

    @torch.no_grad()
    def align_weights(self):
        old_w, new_w = self.fc.weight[: self.n_old], self.fc.weight[self.n_old:]
        gamma = old_w.norm(dim=1).mean() / new_w.norm(dim=1).mean()
        new_w.mul_(gamma)
        return gamma.item()


model = IncrementalNet()
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, weight_decay=5e-4)
for epoch in range(3):
    x, y = torch.randn(32, 16), torch.randint(0, 7, (32,))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(epoch, loss.item())
print("gamma", model.align_weights())
x_test = torch.randn(8, 16)
print(model(x_test).argmax(-1).tolist())
