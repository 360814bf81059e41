# intended: AGI001
# Max-norm constraint on the embedding matrix, applied between forward and backward.
import torch
import torch.nn as nn

def main():
    torch.manual_seed(0)
    emb = nn.Embedding(10, 4)
    fc = nn.Linear(4, 2)
    opt = torch.optim.SGD(list(emb.parameters()) + list(fc.parameters()), lr=0.1)
    idx = torch.randint(0, 10, (8,))
    y = torch.randint(0, 2, (8,))
    for step in range(2):
        logits = fc(emb(idx))
        loss = nn.functional.cross_entropy(logits, y)
        with torch.no_grad():
            norms = fc.weight.norm(dim=1, keepdim=True).clamp(min=1.0)
            fc.weight.div_(norms)  # culprit
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, loss.item())

if __name__ == "__main__":
    main()
