# source: https://github.com/Jakaria08/EESRGAN/issues/25 ("RuntimeError: A view was created in no_grad mode and is being modified inplace with grad mode enabled. ...")
# End-to-end super-resolution + detection: the SR output goes through a detector transform and a detection loss.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class SRGenerator(nn.Module):
    def __init__(self, nf=16):
        super().__init__()
        self.head = nn.Conv2d(3, nf, 3, 1, 1)
        self.body = nn.Sequential(nn.Conv2d(nf, nf, 3, 1, 1), nn.LeakyReLU(0.2, inplace=True), nn.Conv2d(nf, nf, 3, 1, 1))
        self.up = nn.Sequential(nn.Conv2d(nf, nf * 4, 3, 1, 1), nn.PixelShuffle(2), nn.LeakyReLU(0.2, inplace=True))
        self.tail = nn.Conv2d(nf, 3, 3, 1, 1)

    def forward(self, x):
        fea = self.head(x)
        fea = fea + self.body(fea)
        return self.tail(self.up(fea))


class GeneralizedRCNNTransform(nn.Module):
    def __init__(self, image_mean, image_std, size_divisible=32):
        super().__init__()
        self.image_mean, self.image_std, self.size_divisible = image_mean, image_std, size_divisible

    def normalize(self, image):
        mean = torch.as_tensor(self.image_mean, dtype=image.dtype)
        std = torch.as_tensor(self.image_std, dtype=image.dtype)
        return (image - mean[:, None, None]) / std[:, None, None]

    def batch_images(self, images):
        max_size = list(max(s) for s in zip(*[img.shape for img in images]))
        stride = float(self.size_divisible)
        max_size[1] = int(math.ceil(float(max_size[1]) / stride) * stride)
        max_size[2] = int(math.ceil(float(max_size[2]) / stride) * stride)
        batch_shape = (len(images),) + tuple(max_size)
        batched_imgs = images[0].new_zeros(batch_shape)
        for img, pad_img in zip(images, batched_imgs):
            pad_img[: img.shape[0], : img.shape[1], : img.shape[2]].copy_(img)  # culprit
        return batched_imgs

    def forward(self, images):
        images = [img for img in images]
        for i in range(len(images)):
            images[i] = self.normalize(images[i])
        image_sizes = [tuple(img.shape[-2:]) for img in images]
        return self.batch_images(images), image_sizes


class TinyDetector(nn.Module):
    def __init__(self, num_anchors=3):
        super().__init__()
        self.transform = GeneralizedRCNNTransform([0.485, 0.456, 0.406], [0.229, 0.224, 0.225])
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.ReLU(inplace=True), nn.Conv2d(16, 16, 3, 2, 1), nn.ReLU(inplace=True))
        self.cls_logits = nn.Conv2d(16, num_anchors, 1)
        self.bbox_pred = nn.Conv2d(16, num_anchors * 4, 1)

    def forward(self, images, targets):
        batched, _ = self.transform(images)
        feats = self.backbone(batched)
        objectness, deltas = self.cls_logits(feats), self.bbox_pred(feats)
        loss_objectness = F.binary_cross_entropy_with_logits(objectness, targets["objectness"])
        loss_rpn_box_reg = F.smooth_l1_loss(deltas, targets["deltas"], beta=1 / 9)
        return {"loss_objectness": loss_objectness, "loss_rpn_box_reg": loss_rpn_box_reg}


netG, netFRCNN = SRGenerator(), TinyDetector()
optimizer_G = torch.optim.Adam(list(netG.parameters()) + list(netFRCNN.parameters()), lr=1e-4)

for current_step in range(2):
    var_L = torch.rand(2, 3, 14, 14)
    var_H = torch.rand(2, 3, 28, 28)
    targets = {"objectness": (torch.rand(2, 3, 8, 8) > 0.8).float(), "deltas": torch.randn(2, 12, 8, 8) * 0.1}
    intermediate_img = netG(var_L)
    l_g_pix = F.l1_loss(intermediate_img, var_H)
    loss_dict = netFRCNN(intermediate_img, targets)
    l_g_total = l_g_pix + sum(loss_dict.values())
    optimizer_G.zero_grad()
    l_g_total.backward()
    optimizer_G.step()
    print(f"step {current_step}: pix {l_g_pix.item():.4f} det {sum(loss_dict.values()).item():.4f}")
