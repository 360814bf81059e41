import torch

from structures import Boxes


class Predictor:
    def __init__(self, head, image_size):
        self.head, self.image_size = head, image_size

    @torch.inference_mode()
    def __call__(self, feat, stride):
        self.head.eval()
        pred = self.head(feat, stride)
        boxes = Boxes(pred.permute(0, 2, 3, 1).reshape(-1, 4))
        boxes.clip(self.image_size)
        return boxes
