# source: torchvision.models.detection (_utils.BoxCoder.decode_single, RetinaNet regression head, GIoU loss)
# RetinaNet-style regression head: decodes predicted deltas against anchors and trains with a GIoU loss.
import math
import torch
import torch.nn as nn


class BoxCoder:
    def __init__(self, weights=None, bbox_xform_clip=math.log(1000.0 / 16)):
        self.weights = weights
        self.bbox_xform_clip = bbox_xform_clip

    def decode_single(self, rel_codes, boxes):
        widths = boxes[:, 2] - boxes[:, 0]
        heights = boxes[:, 3] - boxes[:, 1]
        ctr_x = boxes[:, 0] + 0.5 * widths
        ctr_y = boxes[:, 1] + 0.5 * heights
        dx, dy, dw, dh = torch.split(rel_codes, 1, dim=-1)
        if self.weights is not None:
            wx, wy, ww, wh = self.weights
            dx, dy, dw, dh = dx / wx, dy / wy, dw / ww, dh / wh
        dw.clamp_(max=self.bbox_xform_clip)  # culprit
        dh = torch.clamp(dh, max=self.bbox_xform_clip)
        pred_ctr_x = dx.squeeze(-1) * widths + ctr_x
        pred_ctr_y = dy.squeeze(-1) * heights + ctr_y
        pred_w = torch.exp(dw.squeeze(-1)) * widths
        pred_h = torch.exp(dh.squeeze(-1)) * heights
        return torch.stack((pred_ctr_x - 0.5 * pred_w, pred_ctr_y - 0.5 * pred_h,
                            pred_ctr_x + 0.5 * pred_w, pred_ctr_y + 0.5 * pred_h), dim=-1)


def generalized_box_iou_loss(boxes1, boxes2, eps=1e-7):
    x1, y1, x2, y2 = boxes1.unbind(dim=-1)
    x1g, y1g, x2g, y2g = boxes2.unbind(dim=-1)
    xkis1, ykis1 = torch.max(x1, x1g), torch.max(y1, y1g)
    xkis2, ykis2 = torch.min(x2, x2g), torch.min(y2, y2g)
    intsct = (xkis2 - xkis1).clamp(min=0) * (ykis2 - ykis1).clamp(min=0)
    union = (x2 - x1) * (y2 - y1) + (x2g - x1g) * (y2g - y1g) - intsct
    iou = intsct / (union + eps)
    area_c = (torch.max(x2, x2g) - torch.min(x1, x1g)) * (torch.max(y2, y2g) - torch.min(y1, y1g))
    return (1 - (iou - ((area_c - union) / (area_c + eps)))).mean()


class RetinaNetRegressionHead(nn.Module):
    def __init__(self, in_channels, num_anchors, num_convs=2):
        super().__init__()
        convs = []
        for _ in range(num_convs):
            convs += [nn.Conv2d(in_channels, in_channels, 3, padding=1), nn.GroupNorm(8, in_channels), nn.ReLU(inplace=True)]
        self.conv = nn.Sequential(*convs)
        self.bbox_reg = nn.Conv2d(in_channels, num_anchors * 4, 3, padding=1)
        nn.init.normal_(self.bbox_reg.weight, std=0.01)
        nn.init.zeros_(self.bbox_reg.bias)

    def forward(self, features):
        out = []
        for x in features:
            reg = self.bbox_reg(self.conv(x))
            N, _, H, W = reg.shape
            out.append(reg.view(N, -1, 4, H, W).permute(0, 3, 4, 1, 2).reshape(N, -1, 4))
        return torch.cat(out, dim=1)


def make_anchors(sizes, strides, scales=(1.0, 1.5)):
    anchors = []
    for (h, w), s in zip(sizes, strides):
        ys, xs = torch.meshgrid(torch.arange(h) * s + s / 2, torch.arange(w) * s + s / 2, indexing="ij")
        ctr = torch.stack([xs, ys], dim=-1).reshape(-1, 1, 2).float()
        half = torch.tensor([4.0 * s * sc for sc in scales]).view(1, -1, 1) / 2
        anchors.append(torch.cat([ctr - half, ctr + half], dim=-1).reshape(-1, 4))
    return torch.cat(anchors)


torch.manual_seed(0)
head = RetinaNetRegressionHead(16, num_anchors=2)
coder = BoxCoder(weights=None)
opt = torch.optim.SGD(head.parameters(), lr=0.01, momentum=0.9)
feats = [torch.randn(2, 16, 8, 8), torch.randn(2, 16, 4, 4)]
anchors = make_anchors([(8, 8), (4, 4)], [8, 16])
gt = anchors + torch.randn_like(anchors) * 2.0
gt[:, 2:] = torch.maximum(gt[:, 2:], gt[:, :2] + 1.0)
deltas = head(feats)
pred_boxes = torch.stack([coder.decode_single(d, anchors) for d in deltas])
loss = generalized_box_iou_loss(pred_boxes, gt.expand_as(pred_boxes))
opt.zero_grad()
loss.backward()
opt.step()
print("giou loss", loss.item())
