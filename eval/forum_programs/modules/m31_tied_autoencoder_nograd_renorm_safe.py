# intended: safe
# tied-weight autoencoder: max-norm constraint on the shared weight applied under no_grad between encoder and decoder
import torch
import torch.nn as nn
import torch.nn.functional as F


class TiedAE(nn.Module):
    def __init__(self, d, k):
        super().__init__()
        self.W = nn.Parameter(torch.randn(k, d) * 0.5)
        self.b_enc = nn.Parameter(torch.zeros(k))
        self.b_dec = nn.Parameter(torch.zeros(d))

    def forward(self, x):
        h = torch.sigmoid(F.linear(x, self.W, self.b_enc))
        with torch.no_grad():
            self.W.div_(self.W.norm(dim=1, keepdim=True).clamp_min(1.0))
        return F.linear(h, self.W.t(), self.b_dec)


def main():
    torch.manual_seed(0)
    ae = TiedAE(6, 3)
    opt = torch.optim.SGD(ae.parameters(), lr=0.1)
    x = torch.randn(8, 6)
    for _ in range(2):
        opt.zero_grad()
        loss = F.mse_loss(ae(x), x)
        loss.backward()
        opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
