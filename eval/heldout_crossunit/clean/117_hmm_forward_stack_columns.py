# Source: lorenlugosch/pytorch_HMM#1 (the in-place assignment in the forward algorithm is replaced
# by building new tensors).
# Clean look-alike of hazard/023: step() returns the new column, the caller stacks them.
# Unit kind: function.
import torch
import torch.nn as nn

torch.manual_seed(0)
N, T = 3, 4
transition_logits = nn.Parameter(torch.randn(N, N))
emission = nn.Linear(2, N)


def step(t, e, carried):
    return e[:, t] * carried


def forward_algorithm(x):
    A = torch.softmax(transition_logits, dim=1)
    e = torch.softmax(emission(x), dim=-1)
    cols = [e[:, 0] / N]
    for t in range(1, T):
        carried = cols[-1] @ A
        cols.append(step(t, e, carried))
    alpha = torch.stack(cols, 1)
    return alpha[:, -1].sum(-1).log()


forward_algorithm(torch.randn(2, T, 2)).sum().backward()
print("done")
