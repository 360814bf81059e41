# source: https://github.com/Atcold/NYU-DLSP20/issues/765 (15-transformer notebook, create_sinusoidal_embeddings)
# Transformer text classifier whose position nn.Embedding weight is overwritten with sin/cos slices at construction.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def create_sinusoidal_embeddings(nb_p, dim, E):
    theta = np.array([[p / np.power(10000, 2 * (j // 2) / dim) for j in range(dim)] for p in range(nb_p)])
    E[:, 0::2] = torch.FloatTensor(np.sin(theta[:, 0::2]))  # culprit
    E[:, 1::2] = torch.FloatTensor(np.cos(theta[:, 1::2]))
    E.detach_()
    E.requires_grad = False


class Embeddings(nn.Module):
    def __init__(self, d_model, vocab_size, max_position_embeddings):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab_size, d_model, padding_idx=1)
        self.position_embeddings = nn.Embedding(max_position_embeddings, d_model)
        create_sinusoidal_embeddings(nb_p=max_position_embeddings, dim=d_model,
                                     E=self.position_embeddings.weight)
        self.LayerNorm = nn.LayerNorm(d_model, eps=1e-12)

    def forward(self, input_ids):
        seq_length = input_ids.size(1)
        position_ids = torch.arange(seq_length, dtype=torch.long).unsqueeze(0).expand_as(input_ids)
        embeddings = self.word_embeddings(input_ids) + self.position_embeddings(position_ids)
        return self.LayerNorm(embeddings)


class TransformerClassifier(nn.Module):
    def __init__(self, d_model=16, num_heads=2, vocab=100, num_answers=2, max_pos=32):
        super().__init__()
        self.emb = Embeddings(d_model, vocab, max_pos)
        self.encoder = nn.TransformerEncoderLayer(d_model, num_heads, dim_feedforward=32, batch_first=True)
        self.dense = nn.Linear(d_model, num_answers)

    def forward(self, x):
        h = self.encoder(self.emb(x))
        return self.dense(h.max(dim=1)[0])


def main():
    torch.manual_seed(0)
    model = TransformerClassifier()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    x = torch.randint(2, 100, (4, 10))
    y = torch.randint(0, 2, (4,))
    for epoch in range(2):
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    main()
