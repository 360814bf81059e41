# source: https://github.com/wutong16/DistributionBalancedLoss/issues/20 (ResampleLoss.logit_reg_functions: logits += self.neg_bias)
# Multi-label classifier whose head already ends in nn.Sigmoid; the DB loss adds its negative-tolerant bias in place.
import torch
import torch.nn as nn
import torch.nn.functional as F


class ResampleLoss(nn.Module):
    def __init__(self, class_freq, train_num, neg_scale=5.0, neg_bias=0.1, gamma=2, balance_param=2.0):
        super().__init__()
        self.neg_scale, self.gamma, self.balance_param = neg_scale, gamma, balance_param
        self.neg_bias = -torch.log(train_num / class_freq - 1) * neg_bias / neg_scale
        self.freq_inv = 1.0 / class_freq

    def rebalance_weight(self, gt_labels):
        repeat_rate = torch.sum(gt_labels * self.freq_inv, dim=1, keepdim=True)
        pos_weight = self.freq_inv.clone().detach().unsqueeze(0) / repeat_rate
        return torch.sigmoid(0.2 * (pos_weight - 0.1)) + 10.0

    def logit_reg_functions(self, labels, logits, weight):
        logits += self.neg_bias  # culprit
        logits = logits * (1 - labels) * self.neg_scale + logits * labels
        weight = weight / self.neg_scale * (1 - labels) + weight * labels
        return logits, weight

    def forward(self, cls_score, label):
        weight = self.rebalance_weight(label.float())
        cls_score, weight = self.logit_reg_functions(label.float(), cls_score, weight)
        logpt = -F.binary_cross_entropy_with_logits(cls_score.clone(), label, reduction="none")
        pt = torch.exp(logpt)
        loss = F.binary_cross_entropy_with_logits(cls_score, label, weight=weight, reduction="none")
        loss = self.balance_param * ((1 - pt) ** self.gamma) * loss
        return loss.mean()


class MultiLabelNet(nn.Module):
    def __init__(self, in_dim=32, num_classes=6):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(in_dim, 64), nn.ReLU())
        self.head = nn.Sequential(nn.Linear(64, num_classes), nn.Sigmoid())

    def forward(self, x):
        return self.head(self.backbone(x))


def main():
    torch.manual_seed(0)
    class_freq = torch.tensor([400., 120., 60., 30., 12., 5.])
    criterion = ResampleLoss(class_freq, train_num=torch.tensor(800.))
    model = MultiLabelNet()
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    x = torch.randn(16, 32)
    y = (torch.rand(16, 6) < 0.3).float()
    opt.zero_grad()
    loss = criterion(model(x), y)
    loss.backward()
    opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
