# source: https://github.com/aladdinpersson/Machine-Learning-Collection/issues/87 (ML/Pytorch/object_detection/YOLO/loss.py)
# YOLOv1 loss: sign*sqrt of width/height is written back into box_predictions[..., 2:4], a mask-product nobody saved.
import torch
import torch.nn as nn


def intersection_over_union(boxes_preds, boxes_labels):
    b1_x1, b1_x2 = boxes_preds[..., 0:1] - boxes_preds[..., 2:3] / 2, boxes_preds[..., 0:1] + boxes_preds[..., 2:3] / 2
    b1_y1, b1_y2 = boxes_preds[..., 1:2] - boxes_preds[..., 3:4] / 2, boxes_preds[..., 1:2] + boxes_preds[..., 3:4] / 2
    b2_x1, b2_x2 = boxes_labels[..., 0:1] - boxes_labels[..., 2:3] / 2, boxes_labels[..., 0:1] + boxes_labels[..., 2:3] / 2
    b2_y1, b2_y2 = boxes_labels[..., 1:2] - boxes_labels[..., 3:4] / 2, boxes_labels[..., 1:2] + boxes_labels[..., 3:4] / 2
    inter = (torch.min(b1_x2, b2_x2) - torch.max(b1_x1, b2_x1)).clamp(0) * \
            (torch.min(b1_y2, b2_y2) - torch.max(b1_y1, b2_y1)).clamp(0)
    area1 = abs((b1_x2 - b1_x1) * (b1_y2 - b1_y1))
    area2 = abs((b2_x2 - b2_x1) * (b2_y2 - b2_y1))
    return inter / (area1 + area2 - inter + 1e-6)


class YoloLoss(nn.Module):
    def __init__(self, S=2, B=2, C=20):
        super().__init__()
        self.mse = nn.MSELoss(reduction="sum")
        self.S, self.B, self.C = S, B, C
        self.lambda_noobj, self.lambda_coord = 0.5, 5

    def forward(self, predictions, target):
        predictions = predictions.reshape(-1, self.S, self.S, self.C + self.B * 5)
        iou_b1 = intersection_over_union(predictions[..., 21:25], target[..., 21:25])
        iou_b2 = intersection_over_union(predictions[..., 26:30], target[..., 21:25])
        ious = torch.cat([iou_b1.unsqueeze(0), iou_b2.unsqueeze(0)], dim=0)
        iou_maxes, bestbox = torch.max(ious, dim=0)
        exists_box = target[..., 20].unsqueeze(3)
        box_predictions = exists_box * (bestbox * predictions[..., 26:30] + (1 - bestbox) * predictions[..., 21:25])
        box_targets = exists_box * target[..., 21:25]
        box_predictions[..., 2:4] = torch.sign(box_predictions[..., 2:4]) * torch.sqrt(
            torch.abs(box_predictions[..., 2:4] + 1e-6))
        box_targets[..., 2:4] = torch.sqrt(box_targets[..., 2:4])
        box_loss = self.mse(torch.flatten(box_predictions, end_dim=-2), torch.flatten(box_targets, end_dim=-2))
        pred_box = bestbox * predictions[..., 25:26] + (1 - bestbox) * predictions[..., 20:21]
        object_loss = self.mse(torch.flatten(exists_box * pred_box), torch.flatten(exists_box * target[..., 20:21]))
        no_object_loss = self.mse(torch.flatten((1 - exists_box) * predictions[..., 20:21], start_dim=1),
                                  torch.flatten((1 - exists_box) * target[..., 20:21], start_dim=1))
        no_object_loss += self.mse(torch.flatten((1 - exists_box) * predictions[..., 25:26], start_dim=1),
                                   torch.flatten((1 - exists_box) * target[..., 20:21], start_dim=1))
        class_loss = self.mse(torch.flatten(exists_box * predictions[..., :20], end_dim=-2),
                              torch.flatten(exists_box * target[..., :20], end_dim=-2))
        return self.lambda_coord * box_loss + object_loss + self.lambda_noobj * no_object_loss + class_loss


def main():
    torch.manual_seed(0)
    S, B, C = 2, 2, 20
    model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 16 * 16, 64), nn.LeakyReLU(0.1), nn.Linear(64, S * S * (C + B * 5)))
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-5)
    loss_fn = YoloLoss(S, B, C)
    x = torch.randn(2, 3, 16, 16)
    target = torch.zeros(2, S, S, C + 5)
    target[:, 0, 1, 3] = 1.0
    target[:, 0, 1, 20] = 1.0
    target[:, 0, 1, 21:25] = torch.tensor([0.5, 0.5, 0.3, 0.4])
    for epoch in range(2):
        loss = loss_fn(model(x), target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    main()
