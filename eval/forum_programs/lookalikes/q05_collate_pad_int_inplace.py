# intended: safe
# A collate function builds a padded id batch and a length mask in place, shifts
# labels in place and clamps rare ids, all on integer/bool tensors, before the model uses them.
import torch
import torch.nn as nn
import torch.nn.functional as F

PAD, UNK, VOCAB = 0, 1, 50


def collate(seqs):
    lengths = torch.tensor([len(s) for s in seqs])
    ids = torch.full((len(seqs), int(lengths.max())), PAD, dtype=torch.long)
    for i, s in enumerate(seqs):
        ids[i, : len(s)] = torch.tensor(s)
    ids[ids >= VOCAB] = UNK
    labels = ids.clone()
    labels[:, :-1] = ids[:, 1:].clone()
    labels[:, -1] = PAD
    labels[labels == PAD] = -100
    mask = torch.arange(ids.shape[1]).unsqueeze(0) < lengths.unsqueeze(1)
    mask &= ids != UNK
    lengths -= 1
    return ids, labels, mask, lengths


class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, 16, padding_idx=PAD)
        self.rnn = nn.GRU(16, 16, batch_first=True)
        self.out = nn.Linear(16, VOCAB)

    def forward(self, ids):
        h, _ = self.rnn(self.emb(ids))
        return self.out(h)


def main():
    torch.manual_seed(0)
    seqs = [[5, 7, 9, 60, 3], [4, 4, 8], [12, 13, 14, 15, 16, 17]]
    ids, labels, mask, lengths = collate(seqs)
    model = TinyLM()
    logits = model(ids)
    loss = F.cross_entropy(logits.reshape(-1, VOCAB), labels.reshape(-1), ignore_index=-100)
    loss.backward()
    print(loss.item(), mask.sum().item(), lengths.tolist())


if __name__ == "__main__":
    main()
