# intended: safe
# Contrastive embedding, out-of-place normalisation; in-place scaling of the logits.
import torch
import torch.nn as nn
import torch.nn.functional as F

class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(10, 32)
        self.fc2 = nn.Linear(32, 16)
    def forward(self, x):
        z = self.fc2(torch.relu(self.fc1(x)))
        return z / z.norm(dim=1, keepdim=True)

def main():
    torch.manual_seed(0)
    enc = Encoder()
    x1 = torch.randn(8, 10)
    x2 = x1 + 0.05 * torch.randn(8, 10)
    z1, z2 = enc(x1), enc(x2)
    logits = z1 @ z2.t()
    logits /= 0.1
    loss = F.cross_entropy(logits, torch.arange(8))
    loss.backward()
    print(loss.item())

if __name__ == "__main__":
    main()
