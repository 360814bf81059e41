# source: detectron2 modeling/box_regression.py (Box2BoxTransform) + structures/boxes.py (clip) + RPN-style matching
# Box regression for proposals: encode targets, decode predictions, clip to the image and train with smooth L1.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

_DEFAULT_SCALE_CLAMP = math.log(1000.0 / 16)


class Box2BoxTransform:
    def __init__(self, weights=(10.0, 10.0, 5.0, 5.0), scale_clamp=_DEFAULT_SCALE_CLAMP):
        self.weights, self.scale_clamp = weights, scale_clamp

    def get_deltas(self, src_boxes, target_boxes):
        src_w, src_h = src_boxes[:, 2] - src_boxes[:, 0], src_boxes[:, 3] - src_boxes[:, 1]
        src_x, src_y = src_boxes[:, 0] + 0.5 * src_w, src_boxes[:, 1] + 0.5 * src_h
        tgt_w, tgt_h = target_boxes[:, 2] - target_boxes[:, 0], target_boxes[:, 3] - target_boxes[:, 1]
        tgt_x, tgt_y = target_boxes[:, 0] + 0.5 * tgt_w, target_boxes[:, 1] + 0.5 * tgt_h
        wx, wy, ww, wh = self.weights
        return torch.stack((wx * (tgt_x - src_x) / src_w, wy * (tgt_y - src_y) / src_h,
                            ww * torch.log(tgt_w / src_w), wh * torch.log(tgt_h / src_h)), dim=1)

    def apply_deltas(self, deltas, boxes):
        widths, heights = boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]
        ctr_x, ctr_y = boxes[:, 0] + 0.5 * widths, boxes[:, 1] + 0.5 * heights
        wx, wy, ww, wh = self.weights
        dx = deltas[:, 0::4] / wx
        dy = deltas[:, 1::4] / wy
        dw = deltas[:, 2::4] / ww
        dh = deltas[:, 3::4] / wh
        dw.clamp_(max=self.scale_clamp)
        dh.clamp_(max=self.scale_clamp)
        pred_ctr_x = dx * widths[:, None] + ctr_x[:, None]
        pred_ctr_y = dy * heights[:, None] + ctr_y[:, None]
        pred_w = torch.exp(dw) * widths[:, None]
        pred_h = torch.exp(dh) * heights[:, None]
        pred_boxes = torch.zeros_like(deltas)
        pred_boxes[:, 0::4] = pred_ctr_x - 0.5 * pred_w
        pred_boxes[:, 1::4] = pred_ctr_y - 0.5 * pred_h
        pred_boxes[:, 2::4] = pred_ctr_x + 0.5 * pred_w
        pred_boxes[:, 3::4] = pred_ctr_y + 0.5 * pred_h
        return pred_boxes


def clip_(boxes, box_size):
    h, w = box_size
    boxes[:, 0::2].clamp_(min=0, max=w)
    boxes[:, 1::2].clamp_(min=0, max=h)
    return boxes


def pairwise_iou(a, b):
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    wh = (torch.min(a[:, None, 2:], b[None, :, 2:]) - torch.max(a[:, None, :2], b[None, :, :2])).clamp(min=0)
    inter = wh[..., 0] * wh[..., 1]
    return inter / (area_a[:, None] + area_b[None, :] - inter)


class BoxHead(nn.Module):
    def __init__(self, in_dim=32, hidden=64):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(inplace=True), nn.Linear(hidden, hidden),
                                nn.ReLU(inplace=True))
        self.bbox_pred = nn.Linear(hidden, 4)
        nn.init.normal_(self.bbox_pred.weight, std=0.001)
        nn.init.constant_(self.bbox_pred.bias, 0)

    def forward(self, roi_feats):
        return self.bbox_pred(self.fc(roi_feats))


torch.manual_seed(0)
image_size = (64, 64)
proposals = torch.rand(24, 2) * 40
proposals = torch.cat([proposals, proposals + 8 + torch.rand(24, 2) * 16], dim=1)
gt_boxes = torch.tensor([[5.0, 5.0, 30.0, 28.0], [30.0, 20.0, 60.0, 50.0]])
transform, head = Box2BoxTransform(), BoxHead()
opt = torch.optim.SGD(head.parameters(), lr=0.02, momentum=0.9)
with torch.no_grad():
    matched_vals, matches = pairwise_iou(gt_boxes, proposals).max(dim=0)
    fg = matched_vals >= 0.1
    matches[~fg] = -1
    gt_deltas = transform.get_deltas(proposals[fg], gt_boxes[matches[fg]])
for step in range(3):
    roi_feats = torch.randn(24, 32)
    pred_deltas = head(roi_feats)
    loss = F.smooth_l1_loss(pred_deltas[fg], gt_deltas, beta=0.0, reduction="sum") / max(1, int(fg.sum()))
    boxes = clip_(transform.apply_deltas(pred_deltas, proposals), image_size)
    loss = loss + 1e-3 * (boxes[:, 2:] - boxes[:, :2]).clamp(min=0).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 5), int(fg.sum()))
