# source: https://github.com/knazeri/edge-connect/issues/188
# Inpainting model backward(): dis_optimizer.step() runs before gen_loss.backward(), which goes through D.
import torch
import torch.nn as nn

torch.manual_seed(0)


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(4, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 3, 3, padding=1))

    def forward(self, x):
        return torch.sigmoid(self.net(x))


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, stride=2, padding=1)
        self.conv2 = nn.Conv2d(8, 1, 3, padding=1)

    def forward(self, x):
        return self.conv2(torch.nn.functional.leaky_relu(self.conv1(x), 0.2))


class InpaintingModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.generator = Generator()
        self.discriminator = Discriminator()
        self.adversarial_loss = nn.BCEWithLogitsLoss()
        self.l1_loss = nn.L1Loss()
        self.gen_optimizer = torch.optim.Adam(self.generator.parameters(), lr=1e-4)
        self.dis_optimizer = torch.optim.Adam(self.discriminator.parameters(), lr=1e-4)

    def forward(self, images, masks):
        images_masked = images * (1 - masks) + masks
        return self.generator(torch.cat((images_masked, masks), dim=1))

    def process(self, images, masks):
        self.gen_optimizer.zero_grad()
        self.dis_optimizer.zero_grad()
        outputs = self(images, masks)

        dis_real = self.discriminator(images)
        dis_fake = self.discriminator(outputs.detach())
        dis_loss = (self.adversarial_loss(dis_real, torch.ones_like(dis_real))
                    + self.adversarial_loss(dis_fake, torch.zeros_like(dis_fake))) / 2

        gen_fake = self.discriminator(outputs)
        gen_loss = self.adversarial_loss(gen_fake, torch.ones_like(gen_fake))
        gen_loss = gen_loss + self.l1_loss(outputs, images)
        return outputs, gen_loss, dis_loss

    def backward(self, gen_loss=None, dis_loss=None):
        dis_loss.backward()
        self.dis_optimizer.step()  # culprit
        gen_loss.backward()
        self.gen_optimizer.step()


model = InpaintingModel()
for _ in range(2):
    images = torch.rand(2, 3, 8, 8)
    masks = (torch.rand(2, 1, 8, 8) > 0.7).float()
    outputs, gen_loss, dis_loss = model.process(images, masks)
    model.backward(gen_loss, dis_loss)
print("done")
