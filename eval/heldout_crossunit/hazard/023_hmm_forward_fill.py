# Source: lorenlugosch/pytorch_HMM#1 ("some in-place assignment operation is taking place and
# autograd cannot handle the back-propagation" in the HMM forward algorithm).
# Unit kind: function -- forward_algorithm() multiplies the previous column (a view of the alpha
# table) into a matmul, which saves it; step() then writes column t of the same table.
import torch
import torch.nn as nn

torch.manual_seed(0)
N, T = 3, 4
transition_logits = nn.Parameter(torch.randn(N, N))
emission = nn.Linear(2, N)


def step(alpha, t, e, carried):
    alpha[:, t] = e[:, t] * carried  # culprit


def forward_algorithm(x):
    A = torch.softmax(transition_logits, dim=1)
    e = torch.softmax(emission(x), dim=-1)
    alpha = torch.zeros(x.shape[0], T, N)
    alpha[:, 0] = e[:, 0] / N
    for t in range(1, T):
        carried = alpha[:, t - 1] @ A
        step(alpha, t, e, carried)
    return alpha[:, -1].sum(-1).log()


forward_algorithm(torch.randn(2, T, 2)).sum().backward()
print("done")
