# intended: safe
# Deep supervision: losses from several decoder scales are accumulated into a dict entry
# with +=, and a running float tracks the epoch loss. The accumulator is a fresh sum that
# nothing saved.
import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiScaleHead(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.body = nn.Conv1d(1, c, 3, padding=1)
        self.heads = nn.ModuleList([nn.Conv1d(c, 1, 1) for _ in range(3)])

    def forward(self, x):
        h = torch.relu(self.body(x))
        outs = []
        for head in self.heads:
            outs.append(head(h))
            h = F.avg_pool1d(h, 2)
        return outs


def main():
    torch.manual_seed(0)
    model = MultiScaleHead(8)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    weights = [1.0, 0.5, 0.25]
    epoch_loss = 0.0
    for it in range(3):
        x = torch.randn(4, 1, 32)
        target = torch.sin(x)
        losses = {"total": 0.0}
        for w, out in zip(weights, model(x)):
            tgt = F.adaptive_avg_pool1d(target, out.shape[-1])
            l = F.l1_loss(out, tgt)
            losses[f"scale{out.shape[-1]}"] = l.detach()
            losses["total"] += w * l
        opt.zero_grad()
        losses["total"].backward()
        opt.step()
        epoch_loss += losses["total"].item()
        print(it, {k: round(float(v), 4) for k, v in losses.items()})
    print("mean", epoch_loss / 3)


if __name__ == "__main__":
    main()
