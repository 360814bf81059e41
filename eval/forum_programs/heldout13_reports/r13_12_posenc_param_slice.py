# source: https://github.com/Atcold/NYU-DLSP20/issues/765 ("RuntimeError: a view of a leaf Variable that requires grad is being used in an in-place operation.")
# Transformer encoder text classifier whose position-embedding table is filled with fixed sinusoids.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def create_sinusoidal_embeddings(nb_p, dim, E):
    pos = torch.arange(nb_p, dtype=torch.float32)[:, None]
    j = torch.arange(dim, dtype=torch.float32)[None, :]
    theta = pos / torch.pow(10000.0, 2 * torch.div(j, 2, rounding_mode="floor") / dim)
    E[:, 0::2] = torch.sin(theta[:, 0::2])  # culprit
    E[:, 1::2] = torch.cos(theta[:, 1::2])
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
        position_ids = torch.arange(seq_length, dtype=torch.long)
        position_ids = position_ids.unsqueeze(0).expand_as(input_ids)
        embeddings = self.word_embeddings(input_ids) + self.position_embeddings(position_ids)
        return self.LayerNorm(embeddings)


class TransformerClassifier(nn.Module):
    def __init__(self, num_layers, d_model, num_heads, conv_hidden_dim, input_vocab_size, num_answers):
        super().__init__()
        self.embeddings = Embeddings(d_model, input_vocab_size, max_position_embeddings=64)
        layer = nn.TransformerEncoderLayer(d_model, num_heads, conv_hidden_dim, dropout=0.1, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers)
        self.dense = nn.Linear(d_model, num_answers)

    def forward(self, x):
        x = self.encoder(self.embeddings(x))
        x, _ = torch.max(x, dim=1)
        return self.dense(x)


model = TransformerClassifier(num_layers=1, d_model=32, num_heads=2,
                              conv_hidden_dim=64, input_vocab_size=500, num_answers=2)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)

for epoch in range(2):
    x = torch.randint(2, 500, (8, 20))
    y = torch.randint(0, 2, (8,))
    loss = F.cross_entropy(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"epoch {epoch}: loss {loss.item():.4f}")
