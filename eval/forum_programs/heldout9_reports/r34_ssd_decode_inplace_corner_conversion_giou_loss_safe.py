# source: https://github.com/dlyldxwl/Stronger-One-stage-detector-with-much-Tricks/issues/1 (box_utils.decode; maintainer: "This inplace operation is correct")
# SSD regression head trained with GIoU on decoded boxes; decode converts center-size to corners with in-place slice ops.
import torch
import torch.nn as nn


def decode(loc, priors, variances):
    boxes = torch.cat((
        priors[:, :2] + loc[:, :2] * variances[0] * priors[:, 2:],
        priors[:, 2:] * torch.exp(loc[:, 2:] * variances[1])), 1)
    boxes[:, :2] -= boxes[:, 2:] / 2
    boxes[:, 2:] += boxes[:, :2]
    return boxes


def giou_loss(pred, target, eps=1e-7):
    lt = torch.max(pred[:, :2], target[:, :2])
    rb = torch.min(pred[:, 2:], target[:, 2:])
    wh = (rb - lt).clamp(min=0)
    inter = wh[:, 0] * wh[:, 1]
    area_p = (pred[:, 2] - pred[:, 0]) * (pred[:, 3] - pred[:, 1])
    area_t = (target[:, 2] - target[:, 0]) * (target[:, 3] - target[:, 1])
    union = area_p + area_t - inter + eps
    iou = inter / union
    enclose_wh = (torch.max(pred[:, 2:], target[:, 2:]) - torch.min(pred[:, :2], target[:, :2])).clamp(min=0)
    enclose = enclose_wh[:, 0] * enclose_wh[:, 1] + eps
    giou = iou - (enclose - union) / enclose
    return (1 - giou).sum()


class SSDHead(nn.Module):
    def __init__(self, ch=8, num_anchors=2):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, ch, 3, stride=2, padding=1), nn.ReLU(inplace=True))
        self.loc = nn.Conv2d(ch, num_anchors * 4, 3, padding=1)

    def forward(self, x):
        loc = self.loc(self.backbone(x))
        return loc.permute(0, 2, 3, 1).contiguous().view(x.size(0), -1, 4)


def main():
    torch.manual_seed(0)
    head = SSDHead()
    opt = torch.optim.SGD(head.parameters(), lr=1e-3, momentum=0.9)
    cy, cx = torch.meshgrid(torch.arange(4.), torch.arange(4.), indexing="ij")
    centers = torch.stack([(cx.flatten() + 0.5) / 4, (cy.flatten() + 0.5) / 4], 1)
    priors = torch.cat([torch.cat([centers, torch.full_like(centers, s)], 1) for s in (0.2, 0.4)], 0)
    images = torch.randn(2, 3, 8, 8)
    gt = torch.tensor([[0.1, 0.1, 0.5, 0.6], [0.4, 0.3, 0.9, 0.8]])
    pos = torch.tensor([5, 21])
    for it in range(2):
        loc_data = head(images)
        loss = 0
        for b in range(2):
            decoded = decode(loc_data[b], priors, [0.1, 0.2])
            loss = loss + giou_loss(decoded[pos[b:b + 1]], gt[b:b + 1])
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(it, loss.item())


if __name__ == "__main__":
    main()
