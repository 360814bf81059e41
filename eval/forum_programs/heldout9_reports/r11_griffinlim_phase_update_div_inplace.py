# source: https://github.com/pytorch/audio/issues/729 (torchaudio.functional.griffinlim before PR #730)
# Backprop through a Griffin-Lim vocoder: a linear layer predicts magnitudes, phases are refined with angles.div_().
import math
import torch
import torch.nn.functional as F

N_FFT, HOP = 64, 16


def complex_norm(t):
    return t.pow(2.).sum(-1).pow(0.5)


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
        angles = rebuilt - tprev.mul_(momentum / (1 + momentum))
        angles = angles.div_(complex_norm(angles).add_(1e-16).unsqueeze(-1).expand_as(angles))  # culprit
    return istft(specgram * angles, window, length)


def main():
    torch.manual_seed(0)
    window = torch.hann_window(N_FFT)
    x = torch.rand(1, 1600)
    mag = stft(x, window).pow(2).sum(-1).transpose(1, -1)
    model = torch.nn.Linear(N_FFT // 2 + 1, N_FFT // 2 + 1)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.0001)
    out = F.softplus(model(mag)).transpose(1, -1)
    wav = griffinlim(out, window, power=2.0, n_iter=4, momentum=0.99, length=x.size(-1))
    loss = F.mse_loss(wav, x)
    loss.backward()
    optimizer.step()
    print(loss.item())


if __name__ == "__main__":
    main()
