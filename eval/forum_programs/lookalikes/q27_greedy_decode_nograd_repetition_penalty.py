# intended: safe
# Seq2seq-ish LM: one teacher-forced training step, then greedy generation in a @no_grad
# method that edits logits in place (repetition penalty, banned pad token).
import torch
import torch.nn as nn
import torch.nn.functional as F

V, PAD = 15, 0


class LM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, 12)
        self.rnn = nn.LSTM(12, 12, batch_first=True)
        self.out = nn.Linear(12, V)

    def forward(self, ids, state=None):
        h, state = self.rnn(self.emb(ids), state)
        return self.out(h), state

    @torch.no_grad()
    def generate(self, prompt, steps=5, penalty=1.3):
        ids = prompt.clone()
        logits, state = self(ids)
        logits = logits[:, -1]
        for _ in range(steps):
            prev = torch.gather(logits, 1, ids)
            logits.scatter_(1, ids, torch.where(prev > 0, prev / penalty, prev * penalty))
            logits[:, PAD] = float("-inf")
            nxt = logits.argmax(-1, keepdim=True)
            ids = torch.cat([ids, nxt], 1)
            logits, state = self(nxt, state)
            logits = logits[:, -1]
        return ids


def main():
    torch.manual_seed(0)
    lm = LM()
    opt = torch.optim.Adam(lm.parameters(), lr=1e-2)
    data = torch.randint(1, V, (4, 8))
    logits, _ = lm(data[:, :-1])
    loss = F.cross_entropy(logits.reshape(-1, V), data[:, 1:].reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(loss.item(), lm.generate(data[:2, :3]).tolist())


if __name__ == "__main__":
    main()
