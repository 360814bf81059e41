# source: network-slimming style channel pruning (BN-gamma masks applied with forward hooks) on a keyword-spotting CNN
# Keyword-spotting CNN on log-mel spectrograms; low-importance channels are masked out with forward hooks during fine-tuning.
import torch
import torch.nn as nn
import torch.nn.functional as F


def log_mel(wave, n_fft=64, hop=32, n_mels=20):
    spec = torch.stft(wave, n_fft, hop, window=torch.hann_window(n_fft), return_complex=True).abs() ** 2
    fb = torch.rand(n_mels, spec.size(1))
    fb = fb / fb.sum(dim=1, keepdim=True)
    return torch.log(fb @ spec + 1e-6)


class ConvBlock(nn.Module):
    def __init__(self, cin, cout, pool=True):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(cout)
        self.act = nn.ReLU(inplace=True)
        self.pool = nn.MaxPool2d(2) if pool else nn.Identity()

    def forward(self, x):
        return self.pool(self.act(self.bn(self.conv(x))))


class KWSNet(nn.Module):
    def __init__(self, n_keywords=6, widths=(16, 32, 32)):
        super().__init__()
        blocks, cin = [], 1
        for i, w in enumerate(widths):
            blocks.append(ConvBlock(cin, w, pool=i < len(widths) - 1))
            cin = w
        self.features = nn.Sequential(*blocks)
        self.classifier = nn.Linear(cin, n_keywords)

    def forward(self, mel):
        x = self.features(mel.unsqueeze(1))
        return self.classifier(x.mean(dim=(2, 3)))


def slimming_masks(model, keep_ratio=0.75):
    masks = {}
    for name, m in model.named_modules():
        if isinstance(m, ConvBlock):
            gamma = m.bn.weight.detach().abs()
            k = max(1, int(keep_ratio * gamma.numel()))
            thr = gamma.sort(descending=True).values[k - 1]
            masks[name] = (gamma >= thr).float()
    return masks


def make_mask_hook(mask):
    def hook(module, inputs, output):
        output.mul_(mask.view(1, -1, 1, 1))  # culprit
    return hook


def attach_masks(model, masks):
    handles = []
    for name, m in model.named_modules():
        if name in masks:
            handles.append(m.act.register_forward_hook(make_mask_hook(masks[name])))
    return handles


torch.manual_seed(0)
model = KWSNet()
with torch.no_grad():
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.weight.uniform_(0.1, 1.0)
handles = attach_masks(model, slimming_masks(model))
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
for step in range(2):
    mel = log_mel(torch.randn(4, 1024))
    labels = torch.randint(0, 6, (4,))
    loss = F.cross_entropy(model(mel), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, loss.item())
for h in handles:
    h.remove()
