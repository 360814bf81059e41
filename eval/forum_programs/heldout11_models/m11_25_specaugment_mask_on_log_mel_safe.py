# source: speech front-end (ESPnet / torchaudio-style learnable filterbank + SpecAugment masking)
# description: masks are written in-place into log features; log saves its input, not its output, so the write is harmless
import torch
import torch.nn as nn


class LearnableFrontend(nn.Module):
    def __init__(self, n_fft=16, n_mels=6):
        super().__init__()
        self.analysis = nn.Conv1d(1, 2 * n_fft, n_fft, stride=n_fft // 2, bias=False)
        self.mel = nn.Linear(n_fft, n_mels, bias=False)
        self.n_fft = n_fft

    def forward(self, wav):
        spec = self.analysis(wav.unsqueeze(1))
        re, im = spec[:, : self.n_fft], spec[:, self.n_fft :]
        power = re.pow(2) + im.pow(2) + 1e-6
        return torch.log(power)


def spec_augment(feats, f_width=2, t_width=2):
    f0 = int(torch.randint(0, feats.shape[1] - f_width, (1,)))
    t0 = int(torch.randint(0, feats.shape[2] - t_width, (1,)))
    mask = torch.zeros_like(feats, dtype=torch.bool)
    mask[:, f0 : f0 + f_width] = True
    mask[:, :, t0 : t0 + t_width] = True
    feats.masked_fill_(mask, 0.0)
    return feats


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.frontend = LearnableFrontend()
        self.rnn = nn.GRU(16, 8, batch_first=True)
        self.ctc = nn.Linear(8, 5)

    def forward(self, wav):
        feats = spec_augment(self.frontend(wav))
        out, _ = self.rnn(feats.transpose(1, 2))
        return self.ctc(out).log_softmax(-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = Encoder()
    wav = torch.randn(2, 128)
    logp = model(wav)
    loss = -logp[..., 1].mean()
    loss.backward()
