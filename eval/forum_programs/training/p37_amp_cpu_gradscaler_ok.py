# intended: safe
# CPU autocast + GradScaler + manual gradient clipping by value on .grad.
import torch
import torch.nn as nn

def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(inplace=True), nn.Linear(32, 5))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    scaler = torch.amp.GradScaler("cpu")
    x, y = torch.randn(8, 16), torch.randint(0, 5, (8,))
    for step in range(3):
        with torch.autocast("cpu", dtype=torch.bfloat16):
            logits = model(x)
            loss = nn.functional.cross_entropy(logits.float(), y)
        opt.zero_grad(set_to_none=True)
        scaler.scale(loss).backward()
        scaler.unscale_(opt)
        for p in model.parameters():
            if p.grad is not None:
                p.grad.clamp_(-1.0, 1.0)
                p.grad.nan_to_num_(0.0)
        scaler.step(opt)
        scaler.update()
        print(step, loss.item())

if __name__ == "__main__":
    main()
