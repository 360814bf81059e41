# preallocated KV cache written in-place while training with teacher forcing
import torch
import torch.nn as nn


class Decoder(nn.Module):
    def __init__(self, d, max_len=8):
        super().__init__()
        self.wq = nn.Linear(d, d)
        self.wk = nn.Linear(d, d)
        self.wv = nn.Linear(d, d)
        self.max_len = max_len
        self.d = d

    def forward(self, xs):
        B, T, D = xs.shape
        k_cache = torch.zeros(B, self.max_len, D)
        v_cache = torch.zeros(B, self.max_len, D)
        outs = []
        for t in range(T):
            x = xs[:, t]
            k_cache[:, t] = self.wk(x)  # culprit
            v_cache[:, t] = self.wv(x)  # culprit
            q = self.wq(x).unsqueeze(1)
            att = (q @ k_cache[:, : t + 1].transpose(1, 2)).softmax(-1)
            outs.append((att @ v_cache[:, : t + 1]).squeeze(1))
        return torch.stack(outs, 1)


def main():
    torch.manual_seed(0)
    dec = Decoder(4)
    y = dec(torch.randn(2, 3, 4))
    y.sum().backward()
    print(dec.wk.weight.grad)


if __name__ == "__main__":
    main()
