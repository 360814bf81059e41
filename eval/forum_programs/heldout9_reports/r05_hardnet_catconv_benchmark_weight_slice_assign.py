# source: https://github.com/PingoLH/FCHarDNet/issues/61 (test.py: cconv.weight[:,:,:,:] = W[:,:,:,:])
# Benchmark of a concat-free conv over a list of HarDNet block outputs vs. Conv2d(cat(...)); copies one random W into both.
import torch
import torch.nn as nn
import torch.nn.functional as F


class CatConv2d(nn.Module):
    """Conv over torch.cat(x_list, 1) without materialising the concatenation."""
    def __init__(self, in_ch, out_ch, kernel_size, relu=False):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(out_ch, in_ch, *kernel_size))
        self.bias = nn.Parameter(torch.zeros(out_ch))
        nn.init.kaiming_uniform_(self.weight)
        self.relu = relu
        self.pad = kernel_size[0] // 2

    def forward(self, x_list):
        out, start = 0, 0
        for x in x_list:
            w = self.weight[:, start:start + x.size(1)]
            out = out + F.conv2d(x, w, padding=self.pad)
            start += x.size(1)
        out = out + self.bias.view(1, -1, 1, 1)
        return F.relu(out) if self.relu else out


def main():
    torch.manual_seed(0)
    x_list = [4, 6, 10]
    img_sz, output_ch = 9, 8
    X_list = [torch.randn(2, c, img_sz, img_sz) for c in x_list]
    W = torch.randn(output_ch, sum(x_list), 3, 3)
    bias = torch.randn(output_ch)

    cconv = CatConv2d(sum(x_list), output_ch, (3, 3), relu=False)
    cconv.weight[:, :, :, :] = W[:, :, :, :]  # culprit
    cconv.bias[:] = bias[:]

    conv = nn.Conv2d(sum(x_list), output_ch, kernel_size=3, stride=1, bias=True, padding=1)
    conv.weight[:, :, :, :] = W[:, :, :, :]
    conv.bias[:] = bias[:]

    out = cconv(X_list)
    out2 = conv(torch.cat(X_list, 1))
    print("top 5 difference:", torch.topk((abs(out - out2)).flatten(), 5)[0])
    out.sum().backward()
    out2.sum().backward()
    print("grad diff", (cconv.weight.grad - conv.weight.grad).abs().max().item())


if __name__ == "__main__":
    main()
