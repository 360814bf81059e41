# source: image-captioning GRU decoder (show-and-tell style) with teacher forcing over a preallocated hidden buffer
# GRUCell caption decoder that writes each step's hidden state into one preallocated (T+1, B, H) tensor.
import torch
import torch.nn as nn
import torch.nn.functional as F


class ImageEncoder(nn.Module):
    def __init__(self, feat_dim=24):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.BatchNorm2d(8), nn.ReLU(inplace=True),
            nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.BatchNorm2d(16), nn.ReLU(inplace=True),
            nn.AdaptiveAvgPool2d(1))
        self.fc = nn.Linear(16, feat_dim)

    def forward(self, images):
        return self.fc(self.features(images).flatten(1))


class GRUDecoder(nn.Module):
    def __init__(self, vocab_size, embed_dim, hidden_dim, ctx_dim, dropout=0.1):
        super().__init__()
        self.hidden_dim = hidden_dim
        self.embed = nn.Embedding(vocab_size, embed_dim)
        self.init_h = nn.Linear(ctx_dim, hidden_dim)
        self.cell = nn.GRUCell(embed_dim, hidden_dim)
        self.dropout = nn.Dropout(dropout)
        self.out = nn.Linear(hidden_dim, vocab_size)

    def init_hidden(self, context):
        return torch.tanh(self.init_h(context))

    def forward(self, context, captions):
        B, T = captions.shape
        hs = context.new_zeros(T + 1, B, self.hidden_dim)
        hs[0] = self.init_hidden(context)
        inputs = self.dropout(self.embed(captions))
        for t in range(T):
            hs[t + 1] = self.cell(inputs[:, t], hs[t])  # culprit
        return self.out(self.dropout(hs[1:])).transpose(0, 1)


class Captioner(nn.Module):
    def __init__(self, vocab_size=30):
        super().__init__()
        self.encoder = ImageEncoder(feat_dim=24)
        self.decoder = GRUDecoder(vocab_size, embed_dim=16, hidden_dim=32, ctx_dim=24)

    def forward(self, images, captions):
        return self.decoder(self.encoder(images), captions)


def caption_loss(logits, targets, pad_id=0):
    return F.cross_entropy(logits.reshape(-1, logits.size(-1)), targets.reshape(-1), ignore_index=pad_id)


def main():
    torch.manual_seed(0)
    model = Captioner()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    images = torch.randn(3, 3, 16, 16)
    captions = torch.randint(1, 30, (3, 7))
    captions[1, 5:] = 0
    logits = model(images, captions[:, :-1])
    loss = caption_loss(logits, captions[:, 1:])
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
