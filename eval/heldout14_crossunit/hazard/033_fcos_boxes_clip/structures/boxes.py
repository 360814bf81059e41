class Boxes:
    """ltrb distances (or xyxy boxes) of shape [N, 4], in the style of detectron2's Boxes."""

    def __init__(self, tensor):
        self.tensor = tensor

    def clip(self, max_size):
        self.tensor.clamp_(min=0, max=max_size)  # culprit

    def area(self):
        t = self.tensor
        return (t[:, 0] + t[:, 2]) * (t[:, 1] + t[:, 3])
