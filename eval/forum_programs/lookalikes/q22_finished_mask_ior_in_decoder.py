# intended: safe
# Training a decoder with per-sequence stop flags: `finished |= ...` updates a bool mask in
# place each step; the mask is only ever used through a fresh float copy.
import torch
import torch.nn as nn
import torch.nn.functional as F

EOS, V = 2, 12


def main():
    torch.manual_seed(0)
    emb = nn.Embedding(V, 8)
    cell = nn.GRUCell(8, 16)
    out = nn.Linear(16, V)
    targets = torch.randint(3, V, (5, 6))
    targets[1, 3] = EOS
    targets[4, 1] = EOS
    h = torch.zeros(5, 16)
    tok = torch.zeros(5, dtype=torch.long)
    finished = torch.zeros(5, dtype=torch.bool)
    loss = 0.0
    for t in range(targets.shape[1]):
        h = cell(emb(tok), h)
        logits = out(h)
        alive = (~finished).float()
        step_loss = F.cross_entropy(logits, targets[:, t], reduction="none")
        loss = loss + (step_loss * alive).sum() / alive.sum().clamp(min=1)
        tok = targets[:, t]
        finished |= tok == EOS
    loss.backward()
    print(loss.item(), finished.tolist())


if __name__ == "__main__":
    main()
