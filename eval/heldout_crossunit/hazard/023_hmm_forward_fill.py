# Source: lorenlugosch/pytorch_HMM#1 ("some in-place assignment operation is taking place and
# autograd cannot handle the back-propagation" in the HMM forward algorithm).
# Unit kind: function -- step() writes column t of the alpha table it is handed, after the
# previous column (a view of the same table) went into a matmul.
import torch
import torch.nn as nn

torch.manual_seed(0)
N, T = 3, 4
transition_logits = nn.Parameter(torch.randn(N, N))
emission = nn.Linear(2, N)


def step(alpha, t, A, e):
    prev = alpha[:, t - 1]
    alpha[:, t] = e[:, t] * (prev @ A)  # culprit


def forward_algorithm(x):
    A = torch.softmax(transition_logits, dim=1)
    e = torch.softmax(emission(x), dim=-1)
    alpha = torch.zeros(x.shape[0], T, N)
    alpha[:, 0] = e[:, 0] / N
    for t in range(1, T):
        step(alpha, t, A, e)
    return alpha[:, -1].sum(-1).log()


forward_algorithm(torch.randn(2, T, 2)).sum().backward()
print("done")
