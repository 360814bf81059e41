# Source: https://github.com/geekyutao/RN/pull/19 (geekyutao/RN PR #19 "moved discriminator's backward position": an "inplace operation error", because the discriminator's forward was called twice before backward)
# Unit kind: cross-class
# In the shape of the inpainting model: the subclass's process() builds the
# generator's adversarial loss through D and the D loss; the base class's backward()
# steps D's optimizer between the two backward calls.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class BaseModel(nn.Module):
    def backward(self, gen_loss, dis_loss):
        self.dis_optimizer.zero_grad()
        dis_loss.backward()
        self.dis_optimizer.step()  # culprit
        self.gen_optimizer.zero_grad()
        gen_loss.backward()
        self.gen_optimizer.step()


class InpaintingModel(BaseModel):
    def __init__(self):
        super().__init__()
        self.generator = nn.Sequential(nn.Conv2d(4, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 3, 3, padding=1))
        self.discriminator = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.LeakyReLU(0.2), nn.Conv2d(8, 1, 3, padding=1))
        self.gen_optimizer = torch.optim.Adam(self.generator.parameters(), lr=1e-4)
        self.dis_optimizer = torch.optim.Adam(self.discriminator.parameters(), lr=4e-4)

    def process(self, images, masks):
        outputs = self.generator(torch.cat([images * (1 - masks), masks], dim=1))
        dis_real = self.discriminator(images)
        dis_fake = self.discriminator(outputs.detach())
        dis_loss = F.softplus(-dis_real).mean() + F.softplus(dis_fake).mean()
        gen_fake = self.discriminator(outputs)
        gen_loss = F.softplus(-gen_fake).mean() + F.l1_loss(outputs, images)
        return gen_loss, dis_loss


model = InpaintingModel()
images, masks = torch.rand(2, 3, 8, 8), (torch.rand(2, 1, 8, 8) > 0.5).float()
model.backward(*model.process(images, masks))
print("done")
