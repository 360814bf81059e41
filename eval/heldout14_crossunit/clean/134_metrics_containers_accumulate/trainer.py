import torch.nn.functional as F


def train_step(model, optimizer, stats, x, labels):
    logits = model(x)
    loss = F.cross_entropy(logits, labels, weight=stats.class_weights())
    stats.update(labels, loss=loss.detach(), acc=(logits.argmax(1) == labels).float().mean())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss
