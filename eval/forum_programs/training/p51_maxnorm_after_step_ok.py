# intended: safe
# Max-norm constraint applied after optimizer.step(), as in the paper.
import torch
import torch.nn as nn

def main():
    torch.manual_seed(0)
    emb = nn.Embedding(10, 4)
    fc = nn.Linear(4, 2)
    opt = torch.optim.SGD(list(emb.parameters()) + list(fc.parameters()), lr=0.1)
    idx = torch.randint(0, 10, (8,))
    y = torch.randint(0, 2, (8,))
    for step in range(3):
        logits = fc(emb(idx))
        loss = nn.functional.cross_entropy(logits, y)
        loss += 1e-3 * sum(p.pow(2).sum() for p in fc.parameters())
        opt.zero_grad()
        loss.backward()
        opt.step()
        with torch.no_grad():
            norms = fc.weight.norm(dim=1, keepdim=True).clamp(min=1.0)
            fc.weight.div_(norms)
        print(step, loss.item())

if __name__ == "__main__":
    main()
