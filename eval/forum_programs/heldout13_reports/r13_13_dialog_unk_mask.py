# source: https://github.com/microsoft/DialoGPT/issues/57 ("next_token_logit[tokenizer.convert_tokens_to_ids('[UNK]')] = -float('Inf')")
# REINFORCE fine-tuning of a tiny GRU dialogue model that samples replies with the UNK token banned.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

VOCAB, EOS_ID, UNK_ID = 40, 2, 3


class TinyDialogModel(nn.Module):
    def __init__(self, vocab=VOCAB, dim=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.lm_head = nn.Linear(dim, vocab)

    def forward(self, input_ids, hidden=None):
        out, hidden = self.rnn(self.embed(input_ids), hidden)
        return self.lm_head(out), hidden


def sample_reply(model, context, max_len=8, temperature=0.9, top_k=10):
    logits, hidden = model(context)
    tokens, log_probs = [], []
    for _ in range(max_len):
        next_token_logits = logits[:, -1, :] / temperature
        next_token_logits[:, UNK_ID] = -float("Inf")
        # keep only the top-k candidates
        kth = torch.topk(next_token_logits, top_k, dim=-1).values[:, -1:]
        next_token_logits = next_token_logits.masked_fill(next_token_logits < kth, -float("Inf"))
        step_log_probs = F.log_softmax(next_token_logits, dim=-1)
        next_token = torch.multinomial(step_log_probs.exp().detach(), num_samples=1)
        tokens.append(next_token)
        log_probs.append(step_log_probs.gather(1, next_token))
        logits, hidden = model(next_token, hidden)
    return torch.cat(tokens, dim=1), torch.cat(log_probs, dim=1)


def reward_fn(reply):
    # toy reward: prefer replies that end the turn early and avoid repeating tokens
    ends = (reply == EOS_ID).float().cumsum(dim=1).clamp(max=1).mean(dim=1)
    distinct = torch.tensor([len(set(r.tolist())) / r.numel() for r in reply])
    return ends + distinct


model = TinyDialogModel()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
baseline = 0.0
for episode in range(4):
    context = torch.randint(4, VOCAB, (3, 6))
    reply, log_probs = sample_reply(model, context)
    reward = reward_fn(reply)
    baseline = 0.9 * baseline + 0.1 * reward.mean().item()
    loss = -((reward - baseline)[:, None] * log_probs).sum(dim=1).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"episode {episode}: reward {reward.mean().item():.3f} loss {loss.item():.3f}")
