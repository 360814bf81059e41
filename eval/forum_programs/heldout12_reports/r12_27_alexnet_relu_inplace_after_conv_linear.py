# source: torchvision/models/alexnet.py (nn.ReLU(inplace=True) directly after every Conv2d and Linear, Dropout in the classifier)
# look-alike: the in-place ReLUs overwrite conv/linear outputs, which those layers never save (they save their inputs)
import torch
import torch.nn as nn

torch.manual_seed(0)


class AlexNetTiny(nn.Module):
    def __init__(self, num_classes=5, dropout=0.5):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, kernel_size=3, stride=1, padding=1),
            nn.ReLU(inplace=True),
            nn.MaxPool2d(kernel_size=2, stride=2),
            nn.Conv2d(8, 16, kernel_size=3, padding=1),
            nn.ReLU(inplace=True),
            nn.Conv2d(16, 16, kernel_size=3, padding=1),
            nn.ReLU(inplace=True),
            nn.MaxPool2d(kernel_size=2, stride=2),
        )
        self.avgpool = nn.AdaptiveAvgPool2d((2, 2))
        self.classifier = nn.Sequential(
            nn.Dropout(p=dropout),
            nn.Linear(16 * 2 * 2, 32),
            nn.ReLU(inplace=True),
            nn.Dropout(p=dropout),
            nn.Linear(32, 32),
            nn.ReLU(inplace=True),
            nn.Linear(32, num_classes),
        )

    def forward(self, x):
        x = self.features(x)
        x = self.avgpool(x)
        x = torch.flatten(x, 1)
        return self.classifier(x)


def train_one_epoch(model, batches, optimizer, criterion):
    model.train()
    total = 0.0
    for images, targets in batches:
        optimizer.zero_grad()
        loss = criterion(model(images), targets)
        loss.backward()
        optimizer.step()
        total += loss.item()
    return total / len(batches)


model = AlexNetTiny()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9, weight_decay=5e-4)
criterion = nn.CrossEntropyLoss()
batches = [(torch.randn(4, 3, 16, 16), torch.randint(0, 5, (4,))) for _ in range(2)]
for epoch in range(2):
    print(epoch, train_one_epoch(model, batches, optimizer, criterion))
