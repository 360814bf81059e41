# intended: safe
# Truncated BPTT for a recurrent policy: after each chunk's update the hidden state
# is detached and the finished envs are reset in place.
import torch
import torch.nn as nn


def main():
    torch.manual_seed(0)
    n_envs, chunk, n_chunks = 4, 5, 3
    cell = nn.LSTMCell(6, 16)
    head = nn.Linear(16, 1)
    opt = torch.optim.Adam(list(cell.parameters()) + list(head.parameters()), lr=1e-3)
    h = torch.zeros(n_envs, 16)
    c = torch.zeros(n_envs, 16)
    for k in range(n_chunks):
        preds = []
        for t in range(chunk):
            h, c = cell(torch.randn(n_envs, 6), (h, c))
            preds.append(head(h))
        loss = (torch.cat(preds) - 1.0).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        h, c = h.detach(), c.detach()
        done = (torch.rand(n_envs) < 0.5).float().unsqueeze(1)
        h.mul_(1 - done)
        c.mul_(1 - done)
        print(f"chunk {k}: {loss.item():.4f}")


if __name__ == "__main__":
    main()
