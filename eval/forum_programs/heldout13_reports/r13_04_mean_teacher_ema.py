# source: https://github.com/CuriousAI/mean-teacher/issues/28 ("About EMA")
# Mean-teacher semi-supervised training: student trained on labels plus consistency to an EMA teacher.
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ConvNet(nn.Module):
    def __init__(self, num_classes=5):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.LeakyReLU(0.1, inplace=True),
            nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.LeakyReLU(0.1, inplace=True),
            nn.AdaptiveAvgPool2d(1),
        )
        self.fc = nn.Linear(32, num_classes)

    def forward(self, x):
        return self.fc(self.features(x).flatten(1))


def create_model(ema=False):
    model = ConvNet()
    if ema:
        for param in model.parameters():
            param.detach_()
    return model


def update_ema_variables(model, ema_model, alpha, global_step):
    # Use the true average until the exponential average is more correct
    alpha = min(1 - 1 / (global_step + 1), alpha)
    for ema_param, param in zip(ema_model.parameters(), model.parameters()):
        ema_param.data.mul_(alpha).add_(param.data, alpha=1 - alpha)


def softmax_mse_loss(input_logits, target_logits):
    input_softmax = F.softmax(input_logits, dim=1)
    target_softmax = F.softmax(target_logits, dim=1)
    return F.mse_loss(input_softmax, target_softmax, reduction="sum") / input_logits.size(0)


model = create_model()
ema_model = create_model(ema=True)
ema_model.load_state_dict(copy.deepcopy(model.state_dict()))
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)

global_step = 0
for epoch in range(2):
    for i in range(3):
        x = torch.randn(8, 3, 12, 12)
        ema_x = x + 0.1 * torch.randn_like(x)
        target = torch.randint(0, 5, (8,))

        model_out = model(x)
        ema_model_out = ema_model(ema_x)
        ema_logit = ema_model_out.detach()

        class_loss = F.cross_entropy(model_out, target)
        consistency_loss = 10.0 * softmax_mse_loss(model_out, ema_logit)
        loss = class_loss + consistency_loss

        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        global_step += 1
        update_ema_variables(model, ema_model, 0.99, global_step)
        print(f"epoch {epoch} it {i}: class {class_loss.item():.3f} cons {consistency_loss.item():.4f}")
