# intended: AGI001
# Truncated BPTT language model: forgot to detach hidden, added retain_graph=True
# to silence "Trying to backward through the graph a second time", now this error.
import torch
import torch.nn as nn

def main():
    torch.manual_seed(0)
    vocab, hid = 20, 16
    emb = nn.Embedding(vocab, hid)
    rnn = nn.GRU(hid, hid, batch_first=True)
    head = nn.Linear(hid, vocab)
    params = list(emb.parameters()) + list(rnn.parameters()) + list(head.parameters())
    opt = torch.optim.SGD(params, lr=0.1)
    data = torch.randint(0, vocab, (4, 31))
    h = torch.zeros(1, 4, hid)
    for i in range(0, 30, 10):
        inp, tgt = data[:, i:i + 10], data[:, i + 1:i + 11]
        out, h = rnn(emb(inp), h)
        loss = nn.functional.cross_entropy(head(out).reshape(-1, vocab), tgt.reshape(-1))
        opt.zero_grad()
        loss.backward(retain_graph=True)
        opt.step()  # culprit
        print(i, loss.item())

if __name__ == "__main__":
    main()
