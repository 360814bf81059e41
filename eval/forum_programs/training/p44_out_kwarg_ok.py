# intended: safe
# Metrics with out= into preallocated buffers; none of them require grad.
import torch
import torch.nn as nn

def main():
    torch.manual_seed(0)
    model = nn.Linear(10, 4)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x = torch.randn(6, 10)
    y = torch.randint(0, 4, (6,))
    pred_buf = torch.empty(6, dtype=torch.long)
    hit_buf = torch.empty(6, dtype=torch.bool)
    for _ in range(3):
        logits = model(x)
        loss = nn.functional.cross_entropy(logits, y)
        torch.argmax(logits.detach(), dim=1, out=pred_buf)
        torch.eq(pred_buf, y, out=hit_buf)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(loss.item(), hit_buf.float().mean().item())

if __name__ == "__main__":
    main()
