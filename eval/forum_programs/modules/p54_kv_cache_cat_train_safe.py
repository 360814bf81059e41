# KV cache grown with torch.cat during a grad-enabled unroll (no in-place, fine); in-place scale of fresh q
import torch
import torch.nn as nn


class Decoder(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.wq, self.wk, self.wv = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)

    def forward(self, xs):
        k_cache = v_cache = None
        outs = []
        for t in range(xs.size(1)):
            x = xs[:, t : t + 1]
            k, v = self.wk(x), self.wv(x)
            k_cache = k if k_cache is None else torch.cat([k_cache, k], 1)
            v_cache = v if v_cache is None else torch.cat([v_cache, v], 1)
            q = self.wq(x)
            q *= x.size(-1) ** -0.5
            att = (q @ k_cache.transpose(1, 2)).softmax(-1)
            outs.append(att @ v_cache)
        return torch.cat(outs, 1)


def main():
    torch.manual_seed(0)
    dec = Decoder(4)
    dec(torch.randn(2, 3, 4)).sum().backward()
    print(dec.wk.weight.grad.norm())


if __name__ == "__main__":
    main()
