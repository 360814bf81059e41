# source: PyTorch seq2seq (encoder-decoder GRU) tutorial with teacher forcing ratio
# decoder logits written step by step into a preallocated outputs tensor (outputs[t] = logits), loss on the whole tensor
import random
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
random.seed(0)

SRC_VOCAB, TGT_VOCAB, EMB, HID, SOS = 20, 18, 16, 32, 1


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(SRC_VOCAB, EMB)
        self.rnn = nn.GRU(EMB, HID)

    def forward(self, src):
        _, hidden = self.rnn(self.emb(src))
        return hidden


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(TGT_VOCAB, EMB)
        self.cell = nn.GRUCell(EMB, HID)
        self.fc = nn.Linear(HID, TGT_VOCAB)

    def forward(self, token, hidden):
        hidden = self.cell(self.emb(token), hidden)
        return self.fc(hidden), hidden


class Seq2Seq(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder, self.decoder = Encoder(), Decoder()

    def forward(self, src, tgt, teacher_forcing_ratio=0.5):
        T, B = tgt.shape
        outputs = torch.zeros(T, B, TGT_VOCAB)
        hidden = self.encoder(src)[-1]
        token = torch.full((B,), SOS, dtype=torch.long)
        for t in range(T):
            logits, hidden = self.decoder(token, hidden)
            outputs[t] = logits
            teacher = random.random() < teacher_forcing_ratio
            token = tgt[t] if teacher else logits.argmax(dim=-1)
        return outputs


def train(steps=3, batch=4):
    model = Seq2Seq()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(steps):
        src = torch.randint(2, SRC_VOCAB, (7, batch))
        tgt = torch.randint(2, TGT_VOCAB, (6, batch))
        outputs = model(src, tgt)
        loss = F.cross_entropy(outputs.view(-1, TGT_VOCAB), tgt.view(-1))
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        print(f"step {step}: loss={loss.item():.4f}")


if __name__ == "__main__":
    train()
