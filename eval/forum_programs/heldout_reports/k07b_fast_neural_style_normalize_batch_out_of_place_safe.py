# source: https://github.com/abhiskk/fast-neural-style/issues/12 (Tanh last layer kept; normalize_batch divides out of place)
import torch
import torch.nn as nn


class TransformerNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 4, 3, padding=1)
        self.in1 = nn.InstanceNorm2d(4, affine=True)
        self.relu = nn.ReLU()
        self.deconv = nn.Conv2d(4, 3, 3, padding=1)
        self.tanh = nn.Tanh()

    def forward(self, X):
        y = self.relu(self.in1(self.conv1(X)))
        y = self.deconv(y)
        return self.tanh(y)


class Vgg16(nn.Module):
    def __init__(self):
        super().__init__()
        self.slice1 = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.ReLU())
        for p in self.parameters():
            p.requires_grad = False

    def forward(self, X):
        return self.slice1(X)


def normalize_batch(batch):
    mean = batch.new_tensor([0.485, 0.456, 0.406]).view(-1, 1, 1)
    std = batch.new_tensor([0.229, 0.224, 0.225]).view(-1, 1, 1)
    batch = batch.div(255.0)
    return (batch - mean) / std


torch.manual_seed(0)
transformer = TransformerNet()
vgg = Vgg16()
optimizer = torch.optim.Adam(transformer.parameters(), 1e-3)
mse_loss = nn.MSELoss()

x = torch.rand(2, 3, 8, 8) * 255
optimizer.zero_grad()
y = transformer(x)
y = normalize_batch(y)
x = normalize_batch(x)
features_y = vgg(y)
features_x = vgg(x)
content_loss = mse_loss(features_y, features_x)
content_loss.backward()
optimizer.step()
print(content_loss.item())
