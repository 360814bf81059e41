# intended: AGI001
# like: arcface-pytorch issue about NaN, clamping cosine in place after sine = sqrt(1 - cosine**2) was computed
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class ArcMarginProduct(nn.Module):
    def __init__(self, in_features, out_features, s=30.0, m=0.50, easy_margin=False):
        super().__init__()
        self.s, self.m = s, m
        self.weight = nn.Parameter(torch.empty(out_features, in_features))
        nn.init.xavier_uniform_(self.weight)
        self.easy_margin = easy_margin
        self.cos_m, self.sin_m = math.cos(m), math.sin(m)
        self.th = math.cos(math.pi - m)
        self.mm = math.sin(math.pi - m) * m

    def forward(self, input, label):
        cosine = F.linear(F.normalize(input), F.normalize(self.weight))
        sine = torch.sqrt((1.0 - torch.pow(cosine, 2)).clamp(0, 1))
        cosine.clamp_(-1 + 1e-7, 1 - 1e-7)  # culprit
        phi = cosine * self.cos_m - sine * self.sin_m
        if self.easy_margin:
            phi = torch.where(cosine > 0, phi, cosine)
        else:
            phi = torch.where(cosine > self.th, phi, cosine - self.mm)
        one_hot = torch.zeros(cosine.size())
        one_hot.scatter_(1, label.view(-1, 1).long(), 1)
        output = (one_hot * phi) + ((1.0 - one_hot) * cosine)
        output *= self.s
        return output


class FaceNet(nn.Module):
    def __init__(self, emb=16):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.BatchNorm2d(8), nn.PReLU(), nn.AdaptiveAvgPool2d(2))
        self.fc = nn.Linear(32, emb)
        self.bn = nn.BatchNorm1d(emb)

    def forward(self, x):
        return self.bn(self.fc(self.features(x).flatten(1)))


def main():
    torch.manual_seed(0)
    model, metric_fc = FaceNet(), ArcMarginProduct(16, 10)
    optimizer = torch.optim.SGD([{"params": model.parameters()}, {"params": metric_fc.parameters()}], lr=0.1, weight_decay=5e-4)
    criterion = nn.CrossEntropyLoss()
    for i in range(2):
        data, label = torch.randn(8, 1, 8, 8), torch.randint(0, 10, (8,))
        feature = model(data)
        output = metric_fc(feature, label)
        loss = criterion(output, label)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(i, loss.item())


if __name__ == "__main__":
    main()
