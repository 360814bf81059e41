import torch.nn.functional as F


def run_epoch(model, loader, optimizer):
    model.init_hidden()
    total = 0.0
    for x, target in loader:
        out = model(x)
        loss = F.mse_loss(out, target)
        optimizer.zero_grad()
        loss.backward(retain_graph=True)
        optimizer.step()  # culprit
        total += loss.item()
    return total
