# intended: safe
# differentiable beam search for sequence-level training: EOS masked on the candidate scores, not on log_probs
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyLM(nn.Module):
    def __init__(self, vocab, d):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.cell = nn.GRUCell(d, d)
        self.out = nn.Linear(d, vocab)


def beam_search(model, h0, beam=3, steps=4, eos=0, min_len=2):
    V = model.out.out_features
    h = h0.expand(beam, -1).contiguous()
    beam_scores = torch.zeros(beam)
    beam_scores[1:] = -1e9
    for t in range(steps):
        logp = F.log_softmax(model.out(h), dim=-1)
        cand = beam_scores.unsqueeze(1) + logp
        if t < min_len:
            cand[:, eos] = float("-inf")
        top, idx = cand.view(-1).topk(beam)
        prev = torch.div(idx, V, rounding_mode="floor")
        tok = idx % V
        beam_scores = top
        h = model.cell(model.emb(tok), h[prev])
    return beam_scores


def main():
    torch.manual_seed(0)
    lm = TinyLM(6, 5)
    h0 = torch.randn(1, 5)
    scores = beam_search(lm, h0)
    loss = -torch.logsumexp(scores, 0)
    loss.backward()
    print(scores.tolist())


if __name__ == "__main__":
    main()
