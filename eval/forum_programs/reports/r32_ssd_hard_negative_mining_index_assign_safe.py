# intended: safe
# like: ssd.pytorch MultiBoxLoss, loss_c[pos] = 0 before sorting for hard negative mining (users fear an inplace error here)
import torch
import torch.nn as nn
import torch.nn.functional as F


def log_sum_exp(x):
    x_max = x.data.max()
    return torch.log(torch.sum(torch.exp(x - x_max), 1, keepdim=True)) + x_max


class MultiBoxLoss(nn.Module):
    def __init__(self, num_classes, negpos_ratio=3):
        super().__init__()
        self.num_classes = num_classes
        self.negpos_ratio = negpos_ratio

    def forward(self, predictions, loc_t, conf_t):
        loc_data, conf_data = predictions
        num = loc_data.size(0)
        pos = conf_t > 0
        num_pos = pos.sum(dim=1, keepdim=True)

        pos_idx = pos.unsqueeze(pos.dim()).expand_as(loc_data)
        loc_p = loc_data[pos_idx].view(-1, 4)
        loc_tt = loc_t[pos_idx].view(-1, 4)
        loss_l = F.smooth_l1_loss(loc_p, loc_tt, reduction="sum")

        batch_conf = conf_data.view(-1, self.num_classes)
        loss_c = log_sum_exp(batch_conf) - batch_conf.gather(1, conf_t.view(-1, 1))
        loss_c = loss_c.view(num, -1)
        loss_c[pos] = 0
        _, loss_idx = loss_c.sort(1, descending=True)
        _, idx_rank = loss_idx.sort(1)
        num_neg = torch.clamp(self.negpos_ratio * num_pos, max=pos.size(1) - 1)
        neg = idx_rank < num_neg.expand_as(idx_rank)

        pos_idx = pos.unsqueeze(2).expand_as(conf_data)
        neg_idx = neg.unsqueeze(2).expand_as(conf_data)
        conf_p = conf_data[(pos_idx + neg_idx).gt(0)].view(-1, self.num_classes)
        targets_weighted = conf_t[(pos + neg).gt(0)]
        loss_c = F.cross_entropy(conf_p, targets_weighted, reduction="sum")

        N = num_pos.sum().float()
        return loss_l / N, loss_c / N


class TinySSDHead(nn.Module):
    def __init__(self, num_classes=4, num_priors=16):
        super().__init__()
        self.num_classes, self.num_priors = num_classes, num_priors
        self.base = nn.Sequential(nn.Conv2d(3, 8, 3, 2, 1), nn.ReLU(inplace=True), nn.Conv2d(8, 8, 3, 2, 1), nn.ReLU(inplace=True))
        self.loc = nn.Conv2d(8, 4, 3, padding=1)
        self.conf = nn.Conv2d(8, num_classes, 3, padding=1)

    def forward(self, x):
        f = self.base(x)
        loc = self.loc(f).permute(0, 2, 3, 1).contiguous().view(x.size(0), -1, 4)
        conf = self.conf(f).permute(0, 2, 3, 1).contiguous().view(x.size(0), -1, self.num_classes)
        return loc, conf


def main():
    torch.manual_seed(0)
    net, criterion = TinySSDHead(), MultiBoxLoss(4)
    optimizer = torch.optim.SGD(net.parameters(), lr=1e-3, momentum=0.9, weight_decay=5e-4)
    images = torch.randn(2, 3, 16, 16)
    loc_t = torch.randn(2, 16, 4)
    conf_t = torch.zeros(2, 16, dtype=torch.long)
    conf_t[0, 3], conf_t[1, 7], conf_t[1, 9] = 1, 2, 3
    for it in range(2):
        out = net(images)
        loss_l, loss_c = criterion(out, loc_t, conf_t)
        loss = loss_l + loss_c
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(it, loss_l.item(), loss_c.item())


if __name__ == "__main__":
    main()
