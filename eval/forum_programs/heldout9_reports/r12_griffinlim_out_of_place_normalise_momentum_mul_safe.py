# source: https://github.com/pytorch/audio/pull/730 (fix for issue #729: out-of-place phase normalisation, tprev.mul_ kept)
# Train a magnitude predictor through Griffin-Lim; only the momentum term on the previous STFT stays in place.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

N_FFT, HOP = 64, 16


def complex_norm(t, power=1.0):
    return t.pow(2.).sum(-1).pow(0.5 * power)


def stft(x, window):
    return torch.view_as_real(torch.stft(x, N_FFT, HOP, N_FFT, window, center=True,
                                         pad_mode="reflect", normalized=False, onesided=True, return_complex=True))


def istft(spec, window, length):
    return torch.istft(torch.view_as_complex(spec.contiguous()), N_FFT, HOP, N_FFT, window, length=length)


def griffinlim(specgram, window, power, n_iter, momentum, length):
    specgram = specgram.pow(1 / power)
    batch, freq, frames = specgram.size()
    angles = 2 * math.pi * torch.rand(batch, freq, frames)
    angles = torch.stack([angles.cos(), angles.sin()], dim=-1)
    specgram = specgram.unsqueeze(-1).expand_as(angles)
    rebuilt = torch.tensor(0.)
    for _ in range(n_iter):
        tprev = rebuilt
        inverse = istft(specgram * angles, window, length)
        rebuilt = stft(inverse, window)
        angles = rebuilt
        if momentum:
            angles = angles - tprev.mul_(momentum / (1 + momentum))
        angles = angles.div(complex_norm(angles).add(1e-16).unsqueeze(-1).expand_as(angles))
    return istft(specgram * angles, window, length)


class MagnitudePredictor(nn.Module):
    def __init__(self, bins):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(bins, bins), nn.ReLU(inplace=True), nn.Linear(bins, bins))

    def forward(self, mag):
        return F.softplus(self.net(mag.transpose(1, -1))).transpose(1, -1)


def main():
    torch.manual_seed(0)
    window = torch.hann_window(N_FFT)
    x = torch.rand(1, 1600)
    mag = stft(x, window).pow(2).sum(-1)
    model = MagnitudePredictor(N_FFT // 2 + 1)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
    for step in range(2):
        optimizer.zero_grad()
        wav = griffinlim(model(mag), window, power=2.0, n_iter=4, momentum=0.99, length=x.size(-1))
        loss = F.mse_loss(wav, x)
        loss.backward()
        optimizer.step()
        print(step, loss.item())


if __name__ == "__main__":
    main()
