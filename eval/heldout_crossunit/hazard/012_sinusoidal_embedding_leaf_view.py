# Source: Atcold/NYU-DLSP20#765 (E[:, 0::2] = torch.FloatTensor(np.sin(theta[:, 0::2])) on an
# embedding weight: "a view of a leaf Variable that requires grad is being used in an in-place
# operation").
# Unit kind: function -- the helper fills the weight tensor handed to it by a module __init__.
import numpy as np
import torch
import torch.nn as nn


def create_sinusoidal_embeddings(nb_p, dim, E):
    theta = np.array([[p / np.power(10000, 2 * (j // 2) / dim) for j in range(dim)] for p in range(nb_p)])
    E[:, 0::2] = torch.FloatTensor(np.sin(theta[:, 0::2]))  # culprit
    E[:, 1::2] = torch.FloatTensor(np.cos(theta[:, 1::2]))
    E.detach_()
    E.requires_grad = False


class Embeddings(nn.Module):
    def __init__(self, d_model, vocab_size, max_position_embeddings):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab_size, d_model)
        self.position_embeddings = nn.Embedding(max_position_embeddings, d_model)
        create_sinusoidal_embeddings(max_position_embeddings, d_model, self.position_embeddings.weight)


torch.manual_seed(0)
Embeddings(8, 20, 6)
print("done")
