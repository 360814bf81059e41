import torch
import torch.nn as nn


class KGModel(nn.Module):
    def __init__(self, num_entities, dim, num_relations):
        super().__init__()
        self.entities = nn.Embedding(num_entities, dim, max_norm=1.0)
        self.relations = nn.Parameter(torch.randn(num_relations, dim))
