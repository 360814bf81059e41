import torch
import torch.nn as nn


class PromptLearner(nn.Module):
    def __init__(self, n_ctx, dim, class_token=False):
        super().__init__()
        self.ctx = nn.Parameter(torch.randn(n_ctx, dim) * 0.02)
        self.cls = nn.Parameter(torch.zeros(1, dim)) if class_token else None

    def forward(self):
        if self.cls is None:
            return self.ctx                       # the parameter itself, a leaf
        return torch.cat([self.cls, self.ctx], dim=0)
