# source: few-shot "weight imprinting" (Qi et al. 2018) for a cosine classifier, then fine-tuning
# rows of the classifier weight sliced inside torch.no_grad(), but the copy_ of novel prototypes happens after the block
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

IN_DIM, EMB, N_BASE, N_NOVEL = 10, 16, 4, 2


class CosineClassifier(nn.Module):
    def __init__(self, n_classes, scale=10.0):
        super().__init__()
        self.weight = nn.Parameter(F.normalize(torch.randn(n_classes, EMB), dim=1))
        self.scale = scale

    def forward(self, feats):
        return self.scale * F.normalize(feats, dim=1) @ F.normalize(self.weight, dim=1).t()


class FewShotNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Sequential(nn.Linear(IN_DIM, 32), nn.ReLU(), nn.Linear(32, EMB))
        self.classifier = CosineClassifier(N_BASE + N_NOVEL)

    def forward(self, x):
        return self.classifier(self.embed(x))


def imprint(model, support_x, support_y):
    with torch.no_grad():
        novel_rows = model.classifier.weight[N_BASE:]
    feats = F.normalize(model.embed(support_x), dim=1)
    protos = torch.stack([feats[support_y == c].mean(0) for c in range(N_NOVEL)])
    novel_rows.copy_(F.normalize(protos, dim=1))  # culprit


def finetune(model, steps=3, batch=16):
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    for step in range(steps):
        x = torch.randn(batch, IN_DIM)
        y = torch.randint(0, N_BASE + N_NOVEL, (batch,))
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step}: loss={loss.item():.4f}")


def main():
    model = FewShotNet()
    support_x = torch.randn(10, IN_DIM)
    support_y = torch.arange(10) % N_NOVEL
    imprint(model, support_x, support_y)
    finetune(model)


if __name__ == "__main__":
    main()
