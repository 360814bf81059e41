# FixMatch-style pseudo labels: softmax of teacher logits edited in place under no_grad
import torch
import torch.nn as nn


def main():
    torch.manual_seed(0)
    model = nn.Linear(4, 3)
    x_weak, x_strong = torch.randn(6, 4), torch.randn(6, 4)
    with torch.no_grad():
        probs = model(x_weak).softmax(-1)
        conf, _ = probs.max(-1)
        probs[conf < 0.4] = 0.0
        probs.div_(probs.sum(-1, keepdim=True).clamp_min(1e-8))
    logp = model(x_strong).log_softmax(-1)
    loss = -(probs * logp).sum(-1).mean()
    loss.backward()
    print(loss.item(), model.weight.grad.norm().item())


if __name__ == "__main__":
    main()
