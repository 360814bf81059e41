"""Style-transfer-like image optimisation with LBFGS: the image itself is the leaf being optimised, and the
closure LBFGS calls clamps it to the valid range in place before each evaluation -- outside no_grad, so
torch refuses the in-place write on a leaf that requires grad."""
import torch
from torch import nn
import torch.nn.functional as F


def optimise_image(extractor, content, steps=2):
    with torch.no_grad():
        target = extractor(content)
    image = content.clone().requires_grad_(True)
    optimizer = torch.optim.LBFGS([image], max_iter=2)
    for _ in range(steps):
        def closure():
            with torch.no_grad():
                image.clamp_(0, 1)  # expect: AGI002
            optimizer.zero_grad()
            loss = F.mse_loss(extractor(image), target)
            loss.backward()
            return loss
        optimizer.step(closure)
    return image.detach()


def run():
    torch.manual_seed(0)
    extractor = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.Tanh())
    for p in extractor.parameters():
        p.requires_grad_(False)
    content = torch.rand(1, 3, 8, 8)
    return optimise_image(extractor, content)


if __name__ == "__main__":
    print(run().mean())
