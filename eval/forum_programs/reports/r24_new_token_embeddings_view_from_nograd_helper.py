# intended: AGI004
# like: forum thread on adding special tokens, new embedding rows taken under no_grad in a helper and filled outside it
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyLM(nn.Module):
    def __init__(self, vocab=20, d=16):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.rnn = nn.GRU(d, d, batch_first=True)
        self.lm_head = nn.Linear(d, vocab)

    def resize_token_embeddings(self, new_vocab):
        old = self.embed
        self.embed = nn.Embedding(new_vocab, old.embedding_dim)
        new_head = nn.Linear(old.embedding_dim, new_vocab)
        with torch.no_grad():
            self.embed.weight[: old.num_embeddings] = old.weight
            new_head.weight[: old.num_embeddings] = self.lm_head.weight
            new_head.bias[: old.num_embeddings] = self.lm_head.bias
        self.lm_head = new_head

    def forward(self, ids):
        h, _ = self.rnn(self.embed(ids))
        return self.lm_head(h)


def get_new_token_rows(model, n_new):
    with torch.no_grad():
        return model.embed.weight[-n_new:]


def init_new_tokens(model, n_new, piece_ids):
    rows = get_new_token_rows(model, n_new)
    for i, pieces in enumerate(piece_ids):
        rows[i] = model.embed.weight[pieces].mean(0)  # culprit


def main():
    torch.manual_seed(0)
    model = TinyLM()
    model.resize_token_embeddings(22)
    init_new_tokens(model, 2, [torch.tensor([3, 4, 5]), torch.tensor([7, 8])])
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    ids = torch.randint(0, 22, (4, 6))
    logits = model(ids[:, :-1])
    loss = F.cross_entropy(logits.reshape(-1, 22), ids[:, 1:].reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
