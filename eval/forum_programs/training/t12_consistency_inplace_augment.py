# intended: AGI001
# Consistency regularisation (Pi-model): two predictions on the same batch, the second
# one with Gaussian noise added to the inputs. Added the noise in place to save memory.
import torch
import torch.nn as nn
import torch.nn.functional as F


def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 5))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    batches = [(torch.randn(16, 10), torch.randint(0, 5, (16,))) for _ in range(3)]
    for step, (x, y) in enumerate(batches):
        logits_clean = model(x)
        x.add_(0.05 * torch.randn_like(x))  # culprit
        logits_noisy = model(x)
        loss = F.cross_entropy(logits_clean, y) + F.mse_loss(logits_noisy.softmax(1), logits_clean.softmax(1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, loss.item())


if __name__ == "__main__":
    main()
