# intended: safe
# like: YOLOv3 ports that decode in place, prediction[..., :2] = torch.sigmoid(prediction[..., :2]) -- looks risky, is fine
import torch
import torch.nn as nn
import torch.nn.functional as F


class YOLOLayer(nn.Module):
    def __init__(self, anchors, num_classes, img_dim=32):
        super().__init__()
        self.register_buffer("anchors", torch.tensor(anchors, dtype=torch.float32))
        self.num_anchors = len(anchors)
        self.num_classes = num_classes
        self.img_dim = img_dim

    def forward(self, x):
        num_samples, _, grid_size, _ = x.shape
        stride = self.img_dim / grid_size
        prediction = (
            x.view(num_samples, self.num_anchors, self.num_classes + 5, grid_size, grid_size)
            .permute(0, 1, 3, 4, 2)
            .contiguous()
        )
        grid = torch.arange(grid_size, dtype=torch.float32)
        grid_x = grid.repeat(grid_size, 1).view(1, 1, grid_size, grid_size)
        grid_y = grid.repeat(grid_size, 1).t().view(1, 1, grid_size, grid_size)
        scaled_anchors = (self.anchors / stride).view(1, self.num_anchors, 1, 1, 2)

        prediction[..., 0] = torch.sigmoid(prediction[..., 0]) + grid_x
        prediction[..., 1] = torch.sigmoid(prediction[..., 1]) + grid_y
        prediction[..., 2:4] = torch.exp(prediction[..., 2:4]) * scaled_anchors
        prediction[..., 4:] = torch.sigmoid(prediction[..., 4:])
        prediction[..., :4] *= stride
        return prediction.view(num_samples, -1, self.num_classes + 5)


class Darknetish(nn.Module):
    def __init__(self, num_classes=2):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, 3, 2, 1), nn.BatchNorm2d(8), nn.LeakyReLU(0.1, inplace=True),
            nn.Conv2d(8, 16, 3, 2, 1), nn.BatchNorm2d(16), nn.LeakyReLU(0.1, inplace=True),
        )
        self.pred = nn.Conv2d(16, 3 * (num_classes + 5), 1)
        self.yolo = YOLOLayer([(10, 13), (16, 30), (33, 23)], num_classes)

    def forward(self, x):
        return self.yolo(self.pred(self.features(x)))


def main():
    torch.manual_seed(0)
    model = Darknetish()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    imgs = torch.rand(2, 3, 32, 32)
    tgt_boxes = torch.rand(2, 192, 4) * 32
    tgt_obj = (torch.rand(2, 192) > 0.9).float()
    for it in range(2):
        out = model(imgs)
        loss = F.mse_loss(out[..., :4] / 32, tgt_boxes / 32) + F.binary_cross_entropy(out[..., 4], tgt_obj)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(it, loss.item())


if __name__ == "__main__":
    main()
