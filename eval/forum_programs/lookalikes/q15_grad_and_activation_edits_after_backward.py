# intended: safe
# After backward: the code rescales and clips gradients in place, zeroes gradients of frozen
# embedding rows, and post-processes saved activations in place for a visualisation.
import torch
import torch.nn as nn


def main():
    torch.manual_seed(0)
    emb = nn.Embedding(20, 8)
    enc = nn.Linear(8, 8)
    dec = nn.Linear(8, 20)
    params = list(emb.parameters()) + list(enc.parameters()) + list(dec.parameters())
    opt = torch.optim.SGD(params, lr=0.1)
    accum = 2
    ids = torch.randint(0, 20, (4, 5))
    for micro in range(accum):
        e = emb(ids)
        hidden = torch.tanh(enc(e))
        probs = torch.softmax(dec(hidden), -1)
        loss = -(probs.gather(-1, ids.unsqueeze(-1)) + 1e-9).log().mean()
        loss.backward()
    for p in params:
        p.grad.div_(accum)
        p.grad.clamp_(-0.5, 0.5)
    emb.weight.grad[:3].zero_()
    opt.step()
    # visualise the last micro-batch's activations; the graph is already freed
    hidden.mul_(0.5).add_(0.5)
    probs.clamp_(min=1e-4).log_()
    print(hidden.min().item() >= 0, probs.max().item(), emb.weight.grad[:3].abs().sum().item())


if __name__ == "__main__":
    main()
