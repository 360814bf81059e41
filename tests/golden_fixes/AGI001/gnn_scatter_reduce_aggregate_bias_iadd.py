"""A message-passing layer aggregating with ``Tensor.scatter_reduce`` (as PyG does since 2.3): its backward
reads its result whatever ``reduce`` names (measured for "sum" and "amax"), so adding the bias in place to
the aggregate breaks backward (pyg-team/pytorch_geometric#8953)."""
import torch
import torch.nn as nn


class MaxAggregationConv(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.lin = nn.Linear(in_channels, out_channels, bias=False)
        self.bias = nn.Parameter(torch.zeros(out_channels))

    def forward(self, x, edge_index):
        source, target = edge_index
        messages = self.lin(x)[source]
        index = target.unsqueeze(1).expand_as(messages)
        out = messages.new_zeros(x.size(0), messages.size(1))
        out = out.scatter_reduce(0, index, messages, reduce="amax", include_self=False)
        out = out + self.bias  # expect: AGI001
        return out


def run():
    torch.manual_seed(0)
    conv = MaxAggregationConv(3, 4)
    x = torch.randn(4, 3)
    edge_index = torch.tensor([[0, 1, 2, 3, 1], [1, 0, 3, 2, 2]])
    out = conv(x, edge_index)
    out.pow(2).sum().backward()
    return out


if __name__ == "__main__":
    print(run().shape)
