# intended: AGI001
# like: forum thread on attention-transfer distillation, forward hooks on bn2 (pre-ReLU features) of a ResNet with inplace ReLU
import torch
import torch.nn as nn
import torch.nn.functional as F


class BasicBlock(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.conv1 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(c)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(c)

    def forward(self, x):
        identity = x
        out = self.conv1(x)
        out = self.bn1(out)
        out = self.relu(out)
        out = self.conv2(out)
        out = self.bn2(out)
        out += identity  # culprit
        out = self.relu(out)
        return out


class SmallResNet(nn.Module):
    def __init__(self, width=8, num_classes=5):
        super().__init__()
        self.conv1 = nn.Conv2d(3, width, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(width)
        self.relu = nn.ReLU(inplace=True)
        self.layer1 = BasicBlock(width)
        self.layer2 = BasicBlock(width)
        self.fc = nn.Linear(width, num_classes)

    def forward(self, x):
        x = self.relu(self.bn1(self.conv1(x)))
        x = self.layer2(self.layer1(x))
        return self.fc(F.adaptive_avg_pool2d(x, 1).flatten(1))


def attention_map(fm):
    return F.normalize(fm.pow(2).mean(1).view(fm.size(0), -1))


def register_feature_hooks(model, store):
    def hook(module, inp, out):
        store.append(attention_map(out))
    return [model.layer1.bn2.register_forward_hook(hook), model.layer2.bn2.register_forward_hook(hook)]


def main():
    torch.manual_seed(0)
    teacher, student = SmallResNet(width=8), SmallResNet(width=8)
    teacher.eval()
    t_feats, s_feats = [], []
    register_feature_hooks(teacher, t_feats)
    register_feature_hooks(student, s_feats)
    opt = torch.optim.SGD(student.parameters(), lr=0.1, momentum=0.9)
    x, y = torch.randn(4, 3, 8, 8), torch.randint(0, 5, (4,))
    for step in range(2):
        t_feats.clear()
        s_feats.clear()
        with torch.no_grad():
            teacher(x)
        logits = student(x)
        at_loss = sum((s - t).pow(2).mean() for s, t in zip(s_feats, t_feats))
        loss = F.cross_entropy(logits, y) + 1000.0 / 2 * at_loss
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, loss.item())


if __name__ == "__main__":
    main()
