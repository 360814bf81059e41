# intended: safe
# Multi-label classifier: a training step, then an evaluation function under
# torch.inference_mode() that thresholds and renormalises probabilities in place.
import torch
import torch.nn as nn
import torch.nn.functional as F


@torch.inference_mode()
def evaluate(model, x, y, thr=0.5):
    probs = torch.sigmoid(model(x))
    preds = probs.clone()
    preds[preds < thr] = 0
    preds[preds >= thr] = 1
    tp = (preds * y).sum(0)
    fp = (preds * (1 - y)).sum(0)
    fn = ((1 - preds) * y).sum(0)
    f1 = 2 * tp / (2 * tp + fp + fn).clamp_(min=1)
    probs.div_(probs.sum(1, keepdim=True))
    return f1.mean().item(), probs.max().item()


def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(12, 24), nn.GELU(), nn.Linear(24, 5))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-2)
    x = torch.randn(32, 12)
    y = (torch.rand(32, 5) < 0.3).float()
    for epoch in range(3):
        model.train()
        loss = F.binary_cross_entropy_with_logits(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        model.eval()
        f1, pmax = evaluate(model, x, y)
        print(f"epoch {epoch}: loss {loss.item():.4f} f1 {f1:.3f} pmax {pmax:.3f}")


if __name__ == "__main__":
    main()
