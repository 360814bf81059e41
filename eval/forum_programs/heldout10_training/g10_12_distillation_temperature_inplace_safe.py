# source: knowledge distillation recipe (torchvision-style train loop with a frozen teacher)
# hard CE on raw logits, then student logits divided by T in place; teacher probs clamped in place inside no_grad
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

IN_DIM, N_CLASSES = 20, 5


class Net(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(IN_DIM, hidden), nn.ReLU())
        self.fc = nn.Linear(hidden, N_CLASSES)

    def forward(self, x):
        return self.fc(self.body(x))


def train(steps=3, batch=32, T=4.0, alpha=0.5):
    teacher, student = Net(128), Net(16)
    teacher.eval()
    opt = torch.optim.SGD(student.parameters(), lr=0.05, momentum=0.9)
    for step in range(steps):
        x = torch.randn(batch, IN_DIM)
        y = torch.randint(0, N_CLASSES, (batch,))
        with torch.no_grad():
            t_probs = F.softmax(teacher(x) / T, dim=-1)
            t_probs.clamp_(min=1e-6)
            t_probs /= t_probs.sum(dim=-1, keepdim=True)

        s_logits = student(x)
        hard = F.cross_entropy(s_logits, y)
        s_logits.div_(T)  # reuse the buffer for the softened logits
        soft = F.kl_div(F.log_softmax(s_logits, dim=-1), t_probs, reduction="batchmean") * T * T
        loss = alpha * soft + (1 - alpha) * hard

        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step}: hard={hard.item():.4f} soft={soft.item():.4f}")


if __name__ == "__main__":
    train()
