# intended: safe
# FixMatch-ish: teacher pseudo-labels on the weakly augmented batch (under no_grad),
# then the same batch tensor is strongly augmented in place and fed to the student.
import torch
import torch.nn as nn
import torch.nn.functional as F


def strong_augment_(x, generator):
    x.mul_(1 + 0.2 * torch.randn(x.shape, generator=generator))
    x.add_(0.1 * torch.randn(x.shape, generator=generator))
    return x


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(1)
    teacher = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 5))
    student = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 5))
    opt = torch.optim.Adam(student.parameters(), lr=1e-3)
    for step in range(3):
        x = torch.randn(16, 10)
        with torch.no_grad():
            probs = teacher(x).softmax(dim=1)
            conf, pseudo = probs.max(dim=1)
        x = strong_augment_(x, gen)
        loss = (F.cross_entropy(student(x), pseudo, reduction="none") * (conf > 0.2)).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, f"{loss.item():.4f}", int((conf > 0.2).sum()))


if __name__ == "__main__":
    main()
