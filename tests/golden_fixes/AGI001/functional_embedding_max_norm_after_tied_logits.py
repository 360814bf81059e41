"""The functional form: ``F.embedding(ids, table, max_norm=2.0)`` renormalises the looked-up rows of
``table`` in place before it reads them. The tied output layer ``h @ table.t()`` ran first and saved the
table (for ``h``'s gradient), so the backward raises."""
import torch
import torch.nn.functional as F

# torch renormalises under no_grad and never differentiates it: the numerical Jacobian cannot match
GRADCHECK_SKIP = ("tied_step",)


def tied_step(table, ids, h):
    logits = h @ table.t().clone()
    inputs = F.embedding(ids, table, max_norm=2.0)  # expect: AGI001
    return logits, inputs


def run():
    torch.manual_seed(0)
    table = torch.randn(10, 6, requires_grad=True)
    h = torch.randn(4, 6, requires_grad=True)
    ids = torch.randint(0, 10, (4,))
    logits, inputs = tied_step(table, ids, h)
    loss = F.cross_entropy(logits, ids) + inputs.pow(2).mean()
    loss.backward()
    return logits


if __name__ == "__main__":
    print(run())
