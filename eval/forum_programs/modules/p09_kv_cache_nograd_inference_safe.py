# same KV cache but generation under torch.no_grad()
import torch
import torch.nn as nn


class Decoder(nn.Module):
    def __init__(self, d, max_len=8):
        super().__init__()
        self.wq = nn.Linear(d, d)
        self.wk = nn.Linear(d, d)
        self.wv = nn.Linear(d, d)
        self.register_buffer("k_cache", torch.zeros(1, max_len, d))
        self.register_buffer("v_cache", torch.zeros(1, max_len, d))

    def step(self, x, t):
        self.k_cache[:, t] = self.wk(x)
        self.v_cache[:, t] = self.wv(x)
        q = self.wq(x).unsqueeze(1)
        att = (q @ self.k_cache[:, : t + 1].transpose(1, 2)).softmax(-1)
        return (att @ self.v_cache[:, : t + 1]).squeeze(1)


@torch.no_grad()
def generate(dec, x, steps):
    outs = []
    for t in range(steps):
        x = dec.step(x, t)
        outs.append(x)
    return torch.stack(outs, 1)


def main():
    torch.manual_seed(0)
    dec = Decoder(4)
    y = generate(dec, torch.randn(1, 4), 5)
    print(y.shape)


if __name__ == "__main__":
    main()
