"""A helper returns ``torch.exp(...)``, whose backward needs that very output; the caller normalises it in
place, so backward through the helper's exp raises."""
import torch


def unnormalised_probs(logits):
    return torch.exp(logits - logits.max())


def run():
    torch.manual_seed(0)
    logits = torch.randn(5, requires_grad=True)
    probs = unnormalised_probs(logits)
    probs = probs / probs.sum()  # expect: AGI001
    loss = -(probs[0].log())
    loss.backward()
    return probs


if __name__ == "__main__":
    print(run())
