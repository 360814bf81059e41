# Source: Atcold/NYU-DLSP20#765 (the thread's advice: clone the leaf or write under torch.no_grad;
# here the helper switches off requires_grad before filling, as DistilBERT's helper does).
# Clean look-alike of hazard/012: requires_grad is turned off before the writes.
# Unit kind: function.
import numpy as np
import torch
import torch.nn as nn


def create_sinusoidal_embeddings(nb_p, dim, E):
    theta = np.array([[p / np.power(10000, 2 * (j // 2) / dim) for j in range(dim)] for p in range(nb_p)])
    E.requires_grad = False
    E[:, 0::2] = torch.FloatTensor(np.sin(theta[:, 0::2]))
    E[:, 1::2] = torch.FloatTensor(np.cos(theta[:, 1::2]))


class Embeddings(nn.Module):
    def __init__(self, d_model, vocab_size, max_position_embeddings):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab_size, d_model)
        self.position_embeddings = nn.Embedding(max_position_embeddings, d_model)
        create_sinusoidal_embeddings(max_position_embeddings, d_model, self.position_embeddings.weight)


torch.manual_seed(0)
Embeddings(8, 20, 6)
print("done")
