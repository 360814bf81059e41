# source: knowledge-distillation example (Hinton et al. soft targets) hand-rolled KL instead of F.kl_div
# student softmax output clamped in place (to avoid log(0)) before the manual KL term
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

IN_DIM, N_CLASSES = 20, 5


def make_mlp(hidden):
    return nn.Sequential(nn.Linear(IN_DIM, hidden), nn.ReLU(), nn.Linear(hidden, N_CLASSES))


def distillation_loss(s_logits, t_logits, labels, T=4.0, alpha=0.7):
    t_probs = F.softmax(t_logits / T, dim=-1)
    s_probs = F.softmax(s_logits / T, dim=-1)
    s_probs.clamp_(min=1e-8)  # culprit
    kd = (t_probs * (t_probs.log() - s_probs.log())).sum(dim=-1).mean() * T * T
    ce = F.cross_entropy(s_logits, labels)
    return alpha * kd + (1 - alpha) * ce


def train(steps=3, batch=32):
    teacher = make_mlp(128).eval()
    student = make_mlp(16)
    opt = torch.optim.SGD(student.parameters(), lr=0.1, momentum=0.9)
    for step in range(steps):
        x = torch.randn(batch, IN_DIM)
        y = torch.randint(0, N_CLASSES, (batch,))
        with torch.no_grad():
            t_logits = teacher(x)
        loss = distillation_loss(student(x), t_logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step}: loss={loss.item():.4f}")


if __name__ == "__main__":
    train()
