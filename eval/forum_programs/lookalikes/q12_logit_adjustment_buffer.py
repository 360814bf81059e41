# intended: safe
# Long-tail classification with logit adjustment: the head's logits get the log class
# prior (a buffer) added in place and are divided in place by a temperature float.
import torch
import torch.nn as nn
import torch.nn.functional as F


class LogitAdjustedClassifier(nn.Module):
    def __init__(self, d, counts, tau=1.0, temperature=1.5):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(d, 32), nn.SiLU())
        self.head = nn.Linear(32, len(counts))
        prior = torch.tensor(counts, dtype=torch.float) / sum(counts)
        self.register_buffer("log_prior", tau * prior.log())
        self.temperature = temperature

    def forward(self, x, adjust=True):
        logits = self.head(self.backbone(x))
        if adjust:
            logits += self.log_prior
        logits /= self.temperature
        return logits


def main():
    torch.manual_seed(0)
    model = LogitAdjustedClassifier(6, [500, 120, 30, 8])
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(3):
        x = torch.randn(20, 6)
        y = torch.multinomial(torch.tensor([0.7, 0.2, 0.08, 0.02]), 20, replacement=True)
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, round(loss.item(), 4))


if __name__ == "__main__":
    main()
