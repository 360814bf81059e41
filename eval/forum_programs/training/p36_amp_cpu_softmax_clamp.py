# intended: AGI001
# CPU bf16 autocast training; clamping the probabilities to avoid log(0).
import torch
import torch.nn as nn

def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 32), nn.GELU(), nn.Linear(32, 5))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)
    x, y = torch.randn(8, 16), torch.randint(0, 5, (8,))
    with torch.autocast("cpu", dtype=torch.bfloat16):
        logits = model(x)
        probs = torch.softmax(logits.float(), dim=-1)
        probs.clamp_(min=1e-6)  # culprit
        loss = -torch.log(probs.gather(1, y[:, None])).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(loss.item())

if __name__ == "__main__":
    main()
