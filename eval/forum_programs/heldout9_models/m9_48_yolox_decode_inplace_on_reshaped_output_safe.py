# source: YOLOX head (Megvii-BaseDetection/YOLOX yolox/models/yolo_head.py get_output_and_grid) decoding boxes in place during training
# YOLOX-style decoupled head: concatenated reg/obj/cls maps reshaped, then xy/wh decoded in place before the losses.
import torch
import torch.nn as nn
import torch.nn.functional as F


class DecoupledHead(nn.Module):
    def __init__(self, in_ch=16, n_classes=3):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(in_ch, in_ch, 1), nn.BatchNorm2d(in_ch), nn.SiLU(inplace=True))
        self.cls_conv = nn.Sequential(nn.Conv2d(in_ch, in_ch, 3, padding=1), nn.SiLU(inplace=True))
        self.reg_conv = nn.Sequential(nn.Conv2d(in_ch, in_ch, 3, padding=1), nn.SiLU(inplace=True))
        self.cls_pred = nn.Conv2d(in_ch, n_classes, 1)
        self.reg_pred = nn.Conv2d(in_ch, 4, 1)
        self.obj_pred = nn.Conv2d(in_ch, 1, 1)

    def forward(self, x):
        x = self.stem(x)
        reg_feat = self.reg_conv(x)
        return torch.cat([self.reg_pred(reg_feat), self.obj_pred(reg_feat), self.cls_pred(self.cls_conv(x))], 1)


def get_output_and_grid(output, stride):
    B, n_ch, h, w = output.shape
    yv, xv = torch.meshgrid(torch.arange(h), torch.arange(w), indexing="ij")
    grid = torch.stack((xv, yv), 2).view(1, -1, 2).float()
    output = output.permute(0, 2, 3, 1).reshape(B, h * w, n_ch)
    output[..., :2] = (output[..., :2] + grid) * stride
    output[..., 2:4] = torch.exp(output[..., 2:4]) * stride
    return output


def giou_like_l1(pred_xywh, tgt_xywh):
    return F.l1_loss(pred_xywh[..., :2], tgt_xywh[..., :2]) + F.l1_loss(pred_xywh[..., 2:].log(), tgt_xywh[..., 2:].log())


torch.manual_seed(0)
heads = nn.ModuleList([DecoupledHead(), DecoupledHead()])
opt = torch.optim.SGD(heads.parameters(), lr=0.01, momentum=0.9, nesterov=True)
fpn = [torch.randn(2, 16, 8, 8), torch.randn(2, 16, 4, 4)]
for _ in range(2):
    outputs = torch.cat([get_output_and_grid(h(f), s) for h, f, s in zip(heads, fpn, (8, 16))], dim=1)
    tgt_boxes = torch.rand_like(outputs[..., :4]) * 32 + 1
    obj_t = (torch.rand(outputs.shape[:2]) > 0.9).float()
    loss = giou_like_l1(outputs[..., :4], tgt_boxes) + F.binary_cross_entropy_with_logits(outputs[..., 4], obj_t)
    loss = loss + F.binary_cross_entropy_with_logits(outputs[..., 5:], torch.zeros_like(outputs[..., 5:]))
    opt.zero_grad()
    loss.backward()
    opt.step()
print(loss.item())
