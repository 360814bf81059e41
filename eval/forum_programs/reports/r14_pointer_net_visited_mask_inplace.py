# intended: AGI001
# like: forum thread on a Pointer Network (sorting task), "[torch.BoolTensor [B, N]] is at version N" from the visited mask
import torch
import torch.nn as nn
import torch.nn.functional as F


class PointerNet(nn.Module):
    def __init__(self, in_dim=1, hid=16):
        super().__init__()
        self.embed = nn.Linear(in_dim, hid)
        self.encoder = nn.LSTM(hid, hid, batch_first=True)
        self.decoder = nn.LSTMCell(hid, hid)
        self.W1 = nn.Linear(hid, hid, bias=False)
        self.W2 = nn.Linear(hid, hid, bias=False)
        self.v = nn.Linear(hid, 1, bias=False)
        self.dec_start = nn.Parameter(torch.zeros(hid))

    def forward(self, inputs, targets):
        B, N, _ = inputs.shape
        emb = self.embed(inputs)
        enc_out, (h, c) = self.encoder(emb)
        hx, cx = h[-1], c[-1]
        dec_in = self.dec_start.expand(B, -1)
        mask = torch.zeros(B, N, dtype=torch.bool)
        enc_proj = self.W1(enc_out)
        log_pointers = []
        for step in range(N):
            hx, cx = self.decoder(dec_in, (hx, cx))
            u = self.v(torch.tanh(enc_proj + self.W2(hx).unsqueeze(1))).squeeze(-1)
            u = u.masked_fill(mask, float("-inf"))
            log_p = F.log_softmax(u, dim=-1)
            log_pointers.append(log_p)
            idx = targets[:, step]  # teacher forcing
            mask[torch.arange(B), idx] = True  # culprit
            dec_in = emb[torch.arange(B), idx]
        return torch.stack(log_pointers, 1)


def main():
    torch.manual_seed(0)
    model = PointerNet()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for it in range(2):
        x = torch.rand(4, 6, 1)
        targets = x.squeeze(-1).argsort(dim=1)
        log_pointers = model(x, targets)
        loss = F.nll_loss(log_pointers.reshape(-1, 6), targets.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(it, loss.item())


if __name__ == "__main__":
    main()
