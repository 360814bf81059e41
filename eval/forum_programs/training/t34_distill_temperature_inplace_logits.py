# intended: safe
# Knowledge distillation: teacher logits scaled in place under no_grad; student
# logits (a Linear output) divided by T in place after the CE term used them via
# cross_entropy, which saves its log-softmax result, not its input.
import torch
import torch.nn as nn
import torch.nn.functional as F


def kd_loss(s_logits, t_logits, y, T=4.0, alpha=0.7):
    ce = F.cross_entropy(s_logits, y)
    s_logits /= T
    kl = F.kl_div(F.log_softmax(s_logits, dim=1), F.softmax(t_logits, dim=1), reduction="batchmean")
    return alpha * kl * T * T + (1 - alpha) * ce


def main():
    torch.manual_seed(0)
    teacher = nn.Sequential(nn.Linear(10, 64), nn.ReLU(), nn.Linear(64, 5)).eval()
    student = nn.Sequential(nn.Linear(10, 8), nn.ReLU(), nn.Linear(8, 5))
    opt = torch.optim.Adam(student.parameters(), lr=1e-3)
    x, y = torch.randn(32, 10), torch.randint(0, 5, (32,))
    for epoch in range(3):
        with torch.no_grad():
            t_logits = teacher(x)
            t_logits /= 4.0
        loss = kd_loss(student(x), t_logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"epoch {epoch}: {loss.item():.4f}")


if __name__ == "__main__":
    main()
