# Source: pytorch/tutorials advanced_source/neural_style_tutorial.py (the model is rebuilt with
# add_module over the CNN's children, loss modules are inserted after conv layers, and the
# in-place ReLU "doesn't play very nicely with the ContentLoss and StyleLoss we insert").
# Unit kind: class -- StyleLoss saves the conv output (via the Gram matrix); the ReLU that the
# feature-extractor class created with inplace=True then rewrites it.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class TinyVGGFeatures(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 4, 3, padding=1), nn.ReLU(inplace=True),  # culprit
            nn.Conv2d(4, 4, 3, padding=1))


def gram_matrix(x):
    a, b, c, d = x.size()
    f = x.view(a * b, c * d)
    return torch.mm(f, f.t()) / (a * b * c * d)


class StyleLoss(nn.Module):
    def __init__(self, target_feature):
        super().__init__()
        self.target = gram_matrix(target_feature).detach()

    def forward(self, input):
        self.loss = F.mse_loss(gram_matrix(input), self.target)
        return input


def get_style_model_and_losses(cnn, style_img):
    model, style_losses, i = nn.Sequential(), [], 0
    for layer in cnn.children():
        if isinstance(layer, nn.Conv2d):
            i += 1
            name = f"conv_{i}"
        else:
            name = f"relu_{i}"
        model.add_module(name, layer)
        if name == "conv_1":
            sl = StyleLoss(model(style_img).detach())
            model.add_module(f"style_loss_{i}", sl)
            style_losses.append(sl)
    return model, style_losses


cnn = TinyVGGFeatures().features.eval()
for p in cnn.parameters():
    p.requires_grad_(False)
model, style_losses = get_style_model_and_losses(cnn, torch.rand(1, 3, 8, 8))
input_img = torch.rand(1, 3, 8, 8).requires_grad_(True)
model(input_img)
sum(sl.loss for sl in style_losses).backward()
print("done")
