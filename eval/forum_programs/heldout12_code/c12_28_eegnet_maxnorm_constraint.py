# source: EEGNet (Lawhern et al.) / braindecode Conv2dWithConstraint + LinearWithConstraint max-norm renorm
# EEGNet-style classifier trained for a few steps with a max-norm weight constraint applied after each optimizer step.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Conv2dWithConstraint(nn.Conv2d):
    def __init__(self, *args, max_norm=1.0, **kwargs):
        self.max_norm = max_norm
        super().__init__(*args, **kwargs)


class LinearWithConstraint(nn.Linear):
    def __init__(self, *args, max_norm=0.25, **kwargs):
        self.max_norm = max_norm
        super().__init__(*args, **kwargs)


class EEGNet(nn.Module):
    def __init__(self, n_chans=4, n_classes=3, F1=4, D=2, F2=8, kern_len=8, dropout=0.25):
        super().__init__()
        self.temporal = nn.Sequential(nn.Conv2d(1, F1, (1, kern_len), padding=(0, kern_len // 2), bias=False),
                                      nn.BatchNorm2d(F1))
        self.spatial = nn.Sequential(
            Conv2dWithConstraint(F1, F1 * D, (n_chans, 1), groups=F1, bias=False, max_norm=1.0),
            nn.BatchNorm2d(F1 * D), nn.ELU(inplace=True), nn.AvgPool2d((1, 4)), nn.Dropout(dropout))
        self.separable = nn.Sequential(
            nn.Conv2d(F1 * D, F1 * D, (1, 5), padding=(0, 2), groups=F1 * D, bias=False),
            nn.Conv2d(F1 * D, F2, 1, bias=False), nn.BatchNorm2d(F2), nn.ELU(inplace=True),
            nn.AvgPool2d((1, 2)), nn.Dropout(dropout))
        self.classifier = LinearWithConstraint(F2 * 4, n_classes, max_norm=0.25)

    def forward(self, x):
        x = self.separable(self.spatial(self.temporal(x.unsqueeze(1))))
        return self.classifier(x.flatten(1))

    def apply_max_norm(self):
        for m in self.modules():
            if isinstance(m, (Conv2dWithConstraint, LinearWithConstraint)):
                m.weight.renorm_(p=2, dim=0, maxnorm=m.max_norm)  # culprit


def main(n_steps=3):
    torch.manual_seed(0)
    model = EEGNet()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    signals = torch.randn(6, 4, 33)
    labels = torch.randint(0, 3, (6,))
    for step in range(n_steps):
        logits = model(signals)
        loss = F.cross_entropy(logits, labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        model.apply_max_norm()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
