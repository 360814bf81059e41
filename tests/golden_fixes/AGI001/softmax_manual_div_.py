"""A hand-written softmax normalised in place: ``exp`` saved ``e``, and ``e /= e.sum(...)`` overwrites it."""
import torch


def softmax(logits):
    e = torch.exp(logits - logits.max(dim=-1, keepdim=True).values)
    e = e / e.sum(dim=-1, keepdim=True)  # expect: AGI001
    return e


def run():
    torch.manual_seed(0)
    logits = torch.randn(2, 5, requires_grad=True)
    target = torch.tensor([1, 3])
    probs = softmax(logits)
    loss = -probs[torch.arange(2), target].log().mean()
    loss.backward()
    return probs


if __name__ == "__main__":
    print(run())
