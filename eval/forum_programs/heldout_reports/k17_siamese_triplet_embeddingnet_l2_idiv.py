# source: https://github.com/adambielski/siamese-triplet/issues/51 (EmbeddingNetL2: output /= output.pow(2).sum(1, keepdim=True).sqrt())
import torch
import torch.nn as nn
import torch.nn.functional as F


class EmbeddingNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.convnet = nn.Sequential(nn.Conv2d(1, 4, 3), nn.PReLU(), nn.MaxPool2d(2, stride=2))
        self.fc = nn.Sequential(nn.Linear(4 * 3 * 3, 8), nn.PReLU(), nn.Linear(8, 2))

    def forward(self, x):
        output = self.convnet(x)
        output = output.view(output.size()[0], -1)
        output = self.fc(output)
        return output

    def get_embedding(self, x):
        return self.forward(x)


class EmbeddingNetL2(EmbeddingNet):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        output = super().forward(x)
        output /= output.pow(2).sum(1, keepdim=True).sqrt()  # culprit
        return output


class TripletNet(nn.Module):
    def __init__(self, embedding_net):
        super().__init__()
        self.embedding_net = embedding_net

    def forward(self, x1, x2, x3):
        return self.embedding_net(x1), self.embedding_net(x2), self.embedding_net(x3)


class TripletLoss(nn.Module):
    def __init__(self, margin):
        super().__init__()
        self.margin = margin

    def forward(self, anchor, positive, negative):
        distance_positive = (anchor - positive).pow(2).sum(1)
        distance_negative = (anchor - negative).pow(2).sum(1)
        return F.relu(distance_positive - distance_negative + self.margin).mean()


torch.manual_seed(0)
model = TripletNet(EmbeddingNetL2())
loss_fn = TripletLoss(0.2)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
a, p, n = torch.randn(3, 4, 1, 8, 8).unbind(0)
optimizer.zero_grad()
outputs = model(a, p, n)
loss = loss_fn(*outputs)
loss.backward()
optimizer.step()
print(loss.item())
