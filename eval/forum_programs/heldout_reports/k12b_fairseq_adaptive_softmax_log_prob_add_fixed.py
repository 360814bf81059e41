# source: https://github.com/facebookresearch/fairseq/issues/760 (the reporter's change: lsm(tail_out) + tail_priors out of place)
import torch
from torch import nn


class AdaptiveSoftmax(nn.Module):
    def __init__(self, vocab_size, input_dim, cutoff):
        super().__init__()
        if vocab_size > cutoff[-1]:
            cutoff = cutoff + [vocab_size]
        output_dim = cutoff[0] + len(cutoff) - 1
        self.vocab_size = vocab_size
        self.cutoff = cutoff
        self.lsm = nn.LogSoftmax(dim=1)
        self.head = nn.Linear(input_dim, output_dim, bias=False)
        self.tail = nn.ModuleList()
        for i in range(len(cutoff) - 1):
            self.tail.append(nn.Sequential(
                nn.Linear(input_dim, input_dim // 2, bias=False),
                nn.Linear(input_dim // 2, cutoff[i + 1] - cutoff[i], bias=False)))

    def get_log_prob(self, input, target):
        bsz, length, dim = input.size()
        input = input.contiguous().view(-1, dim)
        head_y = self.head(input)
        log_probs = head_y.new_zeros(input.size(0), self.vocab_size)
        head_sz = self.cutoff[0] + len(self.tail)
        log_probs[:, :head_sz] = self.lsm(head_y)
        tail_priors = log_probs[:, self.cutoff[0]: head_sz].clone()
        for i in range(len(self.tail)):
            start = self.cutoff[i]
            end = self.cutoff[i + 1]
            tail_out = log_probs[:, start:end]
            tail_out.copy_(self.tail[i](input))
            log_probs[:, start:end] = self.lsm(tail_out) + tail_priors[:, i, None]
        log_probs = log_probs.view(bsz, length, -1)
        return log_probs


torch.manual_seed(0)
asm = AdaptiveSoftmax(20, 8, [6, 12])
hidden = torch.randn(2, 3, 8, requires_grad=True)
target = torch.randint(0, 20, (2, 3))
lprobs = asm.get_log_prob(hidden, target)
loss = nn.functional.nll_loss(lprobs.view(-1, 20), target.view(-1))
loss.backward()
print(loss.item())
