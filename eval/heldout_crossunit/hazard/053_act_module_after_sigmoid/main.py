# Source: osmr/imgclsmob#13 ("Inplace ReLU's are unnecessary and wrong": self.activ =
# nn.ReLU(inplace=True) ... x = self.activ(x) modifies the old copy of x as well; Xception
# training failed with "modified by an inplace operation").
# Unit kind: file -- layers.py holds the in-place ReLU, model.py saves a sigmoid output and
# passes it to that activation, main.py runs backward.
import torch

from model import GatedHead

torch.manual_seed(0)
head = GatedHead(6, 4)
head(torch.randn(3, 6)).sum().backward()
print("done")
