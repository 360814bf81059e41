# Source: osmr/imgclsmob#13 (self.activ = nn.ReLU(inplace=True); x = self.activ(x)). Applied to a
# Linear output, which no backward formula needs, the in-place ReLU is safe.
# Clean look-alike of hazard/053: same three files, the activation follows the Linear directly.
# Unit kind: file.
import torch

from model import GatedHead

torch.manual_seed(0)
head = GatedHead(6, 4)
head(torch.randn(3, 6)).sum().backward()
print("done")
