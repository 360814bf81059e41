# intended: safe
# Truncated BPTT with hidden.detach() and gradient clipping by norm.
import torch
import torch.nn as nn

def main():
    torch.manual_seed(0)
    vocab, hid = 20, 16
    emb = nn.Embedding(vocab, hid)
    rnn = nn.LSTM(hid, hid, batch_first=True)
    head = nn.Linear(hid, vocab)
    params = list(emb.parameters()) + list(rnn.parameters()) + list(head.parameters())
    opt = torch.optim.SGD(params, lr=0.1)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
    data = torch.randint(0, vocab, (4, 31))
    h = (torch.zeros(1, 4, hid), torch.zeros(1, 4, hid))
    for i in range(0, 30, 10):
        h = tuple(t.detach() for t in h)
        inp, tgt = data[:, i:i + 10], data[:, i + 1:i + 11]
        out, h = rnn(emb(inp), h)
        loss = nn.functional.cross_entropy(head(out).reshape(-1, vocab), tgt.reshape(-1))
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        opt.step()
        sched.step()
        print(i, loss.item())

if __name__ == "__main__":
    main()
