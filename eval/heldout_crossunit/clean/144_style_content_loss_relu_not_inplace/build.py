import torch.nn as nn

from losses import ContentLoss


def get_content_model(cnn, content_img, content_layers=("conv_1",)):
    model, content_losses, i = nn.Sequential(), [], 0
    for layer in cnn.children():
        if isinstance(layer, nn.Conv2d):
            i += 1
            name = f"conv_{i}"
        else:
            name = f"relu_{i}"
        model.add_module(name, layer)
        if name in content_layers:
            cl = ContentLoss(model(content_img))
            model.add_module(f"content_loss_{i}", cl)
            content_losses.append(cl)
    return model, content_losses
