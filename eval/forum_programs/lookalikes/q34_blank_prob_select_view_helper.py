# intended: AGI001
# Frame classifier with a "blank" class: the blank column is taken with select() and passed
# to a helper that floors it in place before a log. The view shares the softmax output's
# version counter, and softmax saved that output.
import torch
import torch.nn as nn


def floor_(p, eps=1e-6):
    p.clamp_(min=eps)  # culprit
    return p


class FrameTagger(nn.Module):
    def __init__(self, d, n_cls):
        super().__init__()
        self.rnn = nn.GRU(d, 16, batch_first=True)
        self.out = nn.Linear(16, n_cls)

    def forward(self, x):
        h, _ = self.rnn(x)
        return self.out(h).softmax(-1)


def main():
    torch.manual_seed(0)
    model = FrameTagger(4, 5)
    x = torch.randn(3, 9, 4)
    labels = torch.randint(1, 5, (3, 9))
    is_blank = torch.rand(3, 9) < 0.4
    probs = model(x)
    blank = floor_(probs.select(-1, 0))
    label_p = probs.gather(-1, labels.unsqueeze(-1)).squeeze(-1)
    loss = -torch.where(is_blank, blank.log(), label_p.log()).mean()
    loss.backward()
    print(loss.item())


if __name__ == "__main__":
    main()
