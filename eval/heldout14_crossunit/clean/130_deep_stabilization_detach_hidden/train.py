import torch.nn.functional as F


def run_epoch(model, loader, optimizer):
    model.init_hidden()
    total = 0.0
    for x, target in loader:
        model.detach_hidden()
        out = model(x)
        loss = F.mse_loss(out, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
    return total
