# intended: AGI002
# like: forum thread on the neural-style tutorial, input_img.clamp_(0, 1) in the LBFGS closure without torch.no_grad()
import torch
import torch.nn as nn
import torch.nn.functional as F


class FeatureExtractor(nn.Module):
    def __init__(self):
        super().__init__()
        self.block1 = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU())
        self.block2 = nn.Sequential(nn.MaxPool2d(2), nn.Conv2d(8, 16, 3, padding=1), nn.ReLU())

    def forward(self, x):
        f1 = self.block1(x)
        f2 = self.block2(f1)
        return [f1, f2]


def gram(feat):
    b, c, h, w = feat.shape
    f = feat.view(b, c, h * w)
    return torch.bmm(f, f.transpose(1, 2)) / (c * h * w)


def style_transfer(extractor, content_img, style_img, steps=2, style_weight=1e5):
    with torch.no_grad():
        content_targets = extractor(content_img)
        style_targets = [gram(f) for f in extractor(style_img)]
    input_img = content_img.clone().requires_grad_(True)
    optimizer = torch.optim.LBFGS([input_img], max_iter=2)
    for run in range(steps):
        def closure():
            input_img.clamp_(0, 1)  # culprit
            optimizer.zero_grad()
            feats = extractor(input_img)
            content_loss = F.mse_loss(feats[1], content_targets[1])
            style_loss = sum(F.mse_loss(gram(f), g) for f, g in zip(feats, style_targets))
            loss = content_loss + style_weight * style_loss
            loss.backward()
            return loss
        loss = optimizer.step(closure)
        print(run, loss.item())
    return input_img.detach().clamp(0, 1)


def main():
    torch.manual_seed(0)
    extractor = FeatureExtractor().eval()
    for p in extractor.parameters():
        p.requires_grad_(False)
    content_img, style_img = torch.rand(1, 3, 16, 16), torch.rand(1, 3, 16, 16)
    out = style_transfer(extractor, content_img, style_img)
    print(out.shape)


if __name__ == "__main__":
    main()
