# source: CLIP-style contrastive image-text training on toy features (open_clip train loop)
# logit_scale clamped in place under torch.no_grad() after optimizer.step(); in-place scaling of the logits matrix
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

IMG_DIM, TXT_DIM, EMBED = 24, 16, 12


class ToyCLIP(nn.Module):
    def __init__(self):
        super().__init__()
        self.visual = nn.Sequential(nn.Linear(IMG_DIM, 32), nn.GELU(), nn.Linear(32, EMBED))
        self.text = nn.Sequential(nn.Linear(TXT_DIM, 32), nn.GELU(), nn.Linear(32, EMBED))
        self.logit_scale = nn.Parameter(torch.tensor(math.log(1 / 0.07)))

    def forward(self, images, texts):
        img = F.normalize(self.visual(images), dim=-1)
        txt = F.normalize(self.text(texts), dim=-1)
        logits = img @ txt.t()
        logits.mul_(self.logit_scale.exp())
        return logits


def clip_loss(logits):
    labels = torch.arange(logits.shape[0])
    return 0.5 * (F.cross_entropy(logits, labels) + F.cross_entropy(logits.t(), labels))


def train(steps=3, batch=8):
    model = ToyCLIP()
    opt = torch.optim.AdamW(model.parameters(), lr=5e-4, weight_decay=0.2)
    for step in range(steps):
        images, texts = torch.randn(batch, IMG_DIM), torch.randn(batch, TXT_DIM)
        loss = clip_loss(model(images, texts))
        opt.zero_grad()
        loss.backward()
        opt.step()
        with torch.no_grad():
            model.logit_scale.clamp_(0, math.log(100))
        print(f"step {step}: loss={loss.item():.4f} scale={model.logit_scale.exp().item():.2f}")


if __name__ == "__main__":
    train()
