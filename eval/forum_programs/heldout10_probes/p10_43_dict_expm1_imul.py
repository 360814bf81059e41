# probe: expm1 saves its output; an augmented assignment on a dict entry (terms["growth"] *= ...) writes that tensor in place
import torch
import torch.nn as nn

torch.manual_seed(0)


def compute_terms(h):
    terms = {}
    terms["growth"] = torch.expm1(h)
    terms["linear"] = h * 2.0
    return terms


def main():
    fc = nn.Linear(3, 3)
    x = torch.randn(4, 3)
    terms = compute_terms(fc(x))
    terms["growth"] *= 0.5  # culprit
    loss = sum(t.sum() for t in terms.values())
    loss.backward()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
