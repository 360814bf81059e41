import torch.nn as nn

from fc import FCNet


class SimpleClassifier(nn.Module):
    def __init__(self, in_dim, hid_dim, out_dim, dropout):
        super().__init__()
        self.main = nn.Sequential(
            FCNet([in_dim, hid_dim]),
            nn.Dropout(dropout, inplace=True),  # culprit
            nn.Linear(hid_dim, out_dim),
        )

    def forward(self, x):
        return self.main(x)
