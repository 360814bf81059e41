# source: HuggingFace transformers modeling_wav2vec2.py (feature encoder freezing, SpecAugment time masking, CTC head)
# Fine-tunes a tiny wav2vec2-style CTC model on random audio with a frozen convolutional feature encoder.
import torch
import torch.nn as nn
import torch.nn.functional as F
from dataclasses import dataclass


@dataclass
class Config:
    conv_dim: tuple = (32, 32, 32)
    conv_kernel: tuple = (10, 3, 3)
    conv_stride: tuple = (5, 2, 2)
    hidden_size: int = 32
    num_layers: int = 2
    num_heads: int = 4
    vocab_size: int = 12
    mask_time_prob: float = 0.3
    mask_time_length: int = 3
    freeze_feature_encoder: bool = True


class FeatureEncoder(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        layers, cin = [], 1
        for dim, k, s in zip(cfg.conv_dim, cfg.conv_kernel, cfg.conv_stride):
            layers += [nn.Conv1d(cin, dim, k, s, bias=False), nn.GELU()]
            cin = dim
        self.conv_layers = nn.Sequential(*layers)

    def forward(self, input_values):
        return self.conv_layers(input_values[:, None])


def compute_mask_indices(shape, mask_prob, mask_length):
    batch_size, seq_len = shape
    mask = torch.zeros(shape, dtype=torch.bool)
    num_spans = max(1, int(mask_prob * seq_len / mask_length))
    for b in range(batch_size):
        starts = torch.randperm(seq_len - mask_length)[:num_spans]
        for s in starts.tolist():
            mask[b, s:s + mask_length] = True
    return mask


class Wav2Vec2ForCTC(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.feature_extractor = FeatureEncoder(cfg)
        if cfg.conv_dim[-1] != cfg.hidden_size:
            self.feature_projection = nn.Linear(cfg.conv_dim[-1], cfg.hidden_size)
        else:
            self.feature_projection = nn.Identity()
        self.masked_spec_embed = nn.Parameter(torch.rand(cfg.hidden_size))
        layer = nn.TransformerEncoderLayer(cfg.hidden_size, cfg.num_heads, cfg.hidden_size * 2,
                                           dropout=0.0, batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, cfg.num_layers)
        self.lm_head = nn.Linear(cfg.hidden_size, cfg.vocab_size)

    def _mask_hidden_states(self, hidden_states):
        if not self.training or self.cfg.mask_time_prob <= 0:
            return hidden_states
        batch_size, seq_len, _ = hidden_states.shape
        mask_time_indices = compute_mask_indices((batch_size, seq_len), self.cfg.mask_time_prob,
                                                 self.cfg.mask_time_length)
        hidden_states[mask_time_indices] = self.masked_spec_embed  # culprit
        return hidden_states

    def forward(self, input_values, labels, label_lengths):
        if self.cfg.freeze_feature_encoder:
            with torch.no_grad():
                extract_features = self.feature_extractor(input_values).transpose(1, 2)
        else:
            extract_features = self.feature_extractor(input_values).transpose(1, 2)
        hidden_states = self.feature_projection(extract_features)
        hidden_states = self._mask_hidden_states(hidden_states)
        hidden_states = self.encoder(hidden_states)
        log_probs = F.log_softmax(self.lm_head(hidden_states), dim=-1).transpose(0, 1)
        input_lengths = torch.full((input_values.size(0),), log_probs.size(0), dtype=torch.long)
        return F.ctc_loss(log_probs, labels, input_lengths, label_lengths, blank=0, zero_infinity=True)


torch.manual_seed(0)
cfg = Config()
model = Wav2Vec2ForCTC(cfg)
model.train()
optimizer = torch.optim.AdamW([p for n, p in model.named_parameters() if not n.startswith("feature_extractor")],
                              lr=1e-4)
audio = torch.randn(2, 800)
labels = torch.randint(1, cfg.vocab_size, (2, 5))
loss = model(audio, labels, torch.tensor([5, 4]))
optimizer.zero_grad()
loss.backward()
optimizer.step()
print("ctc loss", loss.item())
