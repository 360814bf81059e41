# Message passing with index_add_: aggregate, normalise by degree and activate, all in place
import torch
import torch.nn as nn


class MeanConv(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.msg = nn.Linear(d_in, d_out)
        self.self_lin = nn.Linear(d_in, d_out)

    def forward(self, x, edge_index):
        src, dst = edge_index
        m = self.msg(x)[src]
        agg = x.new_zeros(x.shape[0], m.shape[1])
        agg.index_add_(0, dst, m)
        deg = torch.bincount(dst, minlength=x.shape[0]).clamp(min=1).unsqueeze(1)
        agg /= deg
        agg += self.self_lin(x)
        return agg.relu_()


torch.manual_seed(0)
conv1, conv2 = MeanConv(3, 4), MeanConv(4, 2)
x = torch.randn(5, 3)
ei = torch.tensor([[0, 1, 2, 3, 4, 0], [1, 2, 3, 4, 0, 2]])
out = conv2(conv1(x, ei), ei)
out.sum().backward()
print(conv1.msg.weight.grad.norm())
