"""Prompt tuning: a helper hands out the learnable prompt's first rows, sliced under ``no_grad`` ("only to
look at them"), and the set-up code initialises them from the embeddings of a few vocabulary words, in
place, after the helper returned. The rows are a view, made under no_grad, of a parameter of the model it
was given: torch refuses the write at once."""
import torch
from torch import nn


class PromptedEncoder(nn.Module):
    def __init__(self, vocab=20, dim=8, prompt_len=4):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.prompt = nn.Embedding(prompt_len, dim)
        self.encoder = nn.GRU(dim, dim, batch_first=True)

    def forward(self, ids):
        tokens = self.embed(ids)
        prompt = self.prompt.weight.unsqueeze(0).expand(ids.shape[0], -1, -1)
        states, _ = self.encoder(torch.cat([prompt, tokens], dim=1))
        return states[:, -1]


def leading_prompt_rows(model, n):
    with torch.no_grad():
        return model.prompt.weight[:n]


def init_prompt_from_words(model, word_ids):
    rows = leading_prompt_rows(model, len(word_ids))
    for i, word in enumerate(word_ids):
        rows[i] = model.embed.weight[word] * 0.5  # expect: AGI004


def run():
    torch.manual_seed(0)
    model = PromptedEncoder()
    init_prompt_from_words(model, [3, 7])
    out = model(torch.randint(0, 20, (2, 5)))
    out.pow(2).mean().backward()
    return out


if __name__ == "__main__":
    print(run())
