# source: Online Label Smoothing (Zhang et al. 2021, OLS): class-wise soft-label matrix accumulated from correct predictions
# OLS loss: accumulates detached probs of correct samples into a buffer with index_add_, uses last epoch's matrix as soft targets.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class OnlineLabelSmoothing(nn.Module):
    def __init__(self, n_classes, alpha=0.5, smoothing=0.1):
        super().__init__()
        self.alpha, self.n = alpha, n_classes
        init = torch.full((n_classes, n_classes), smoothing / (n_classes - 1))
        init.fill_diagonal_(1 - smoothing)
        self.register_buffer("supervise", init)
        self.register_buffer("accum", torch.zeros(n_classes, n_classes))
        self.register_buffer("count", torch.zeros(n_classes))

    def forward(self, logits, y):
        log_probs = F.log_softmax(logits, dim=-1)
        soft = -(self.supervise[y] * log_probs).sum(-1).mean()
        hard = F.nll_loss(log_probs, y)
        with torch.no_grad():
            probs = log_probs.exp()
            correct = probs.argmax(-1) == y
            self.accum.index_add_(0, y[correct], probs[correct])
            self.count.index_add_(0, y[correct], torch.ones(int(correct.sum())))
        return self.alpha * hard + (1 - self.alpha) * soft

    @torch.no_grad()
    def next_epoch(self):
        seen = self.count > 0
        self.supervise[seen] = self.accum[seen] / self.count[seen, None]
        self.accum.zero_()
        self.count.zero_()


model = nn.Sequential(nn.Linear(16, 48), nn.ReLU(), nn.Linear(48, 5))
criterion = OnlineLabelSmoothing(5)
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
for epoch in range(3):
    for _ in range(2):
        x, y = torch.randn(24, 16), torch.randint(0, 5, (24,))
        loss = criterion(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    criterion.next_epoch()
    print(epoch, loss.item())
