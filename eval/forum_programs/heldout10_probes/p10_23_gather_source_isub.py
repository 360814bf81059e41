# probe: gather saves its source tensor (not just the index); subtracting a margin from the logits in place afterwards makes it stale
import torch
import torch.nn as nn

torch.manual_seed(0)


def margin_logits(logits, labels, margin):
    target_logit = logits.gather(1, labels[:, None])
    logits -= margin  # culprit
    return logits, target_logit


def main():
    head = nn.Linear(6, 5)
    x = torch.randn(4, 6)
    labels = torch.randint(0, 5, (4,))
    logits = head(x)
    shifted, target_logit = margin_logits(logits, labels, 0.3)
    loss = (shifted.logsumexp(1) - target_logit.squeeze(1)).mean()
    loss.backward()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
