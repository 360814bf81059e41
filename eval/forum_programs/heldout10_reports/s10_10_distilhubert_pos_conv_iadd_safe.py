# source: https://github.com/s3prl/s3prl/issues/369
# DistilHuBERT student TransformerEncoder.extract_features with the fix from the thread: x = x + x_conv (out-of-place)
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class SamePad(nn.Module):
    def __init__(self, kernel_size):
        super().__init__()
        self.remove = 1 if kernel_size % 2 == 0 else 0

    def forward(self, x):
        if self.remove > 0:
            x = x[:, :, : -self.remove]
        return x


class ConvFeatureExtractionModel(nn.Module):
    def __init__(self, conv_layers):
        super().__init__()
        in_d = 1
        self.conv_layers = nn.ModuleList()
        for dim, k, stride in conv_layers:
            self.conv_layers.append(nn.Sequential(nn.Conv1d(in_d, dim, k, stride=stride, bias=False), nn.GELU()))
            in_d = dim

    def forward(self, x):
        x = x.unsqueeze(1)
        for conv in self.conv_layers:
            x = conv(x)
        return x


class TransformerSentenceEncoderLayer(nn.Module):
    def __init__(self, embed_dim, ffn_dim, heads):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(embed_dim, heads, batch_first=True)
        self.self_attn_layer_norm = nn.LayerNorm(embed_dim)
        self.fc1 = nn.Linear(embed_dim, ffn_dim)
        self.fc2 = nn.Linear(ffn_dim, embed_dim)
        self.final_layer_norm = nn.LayerNorm(embed_dim)

    def forward(self, x, key_padding_mask=None):
        residual = x
        x, _ = self.self_attn(x, x, x, key_padding_mask=key_padding_mask, need_weights=False)
        x = self.self_attn_layer_norm(residual + x)
        residual = x
        x = self.fc2(F.gelu(self.fc1(x)))
        x = self.final_layer_norm(residual + x)
        return x


class TransformerEncoder(nn.Module):
    def __init__(self, embed_dim=32, ffn_dim=64, heads=4, layers=2, conv_pos=16, conv_pos_groups=4):
        super().__init__()
        self.dropout = 0.1
        self.embed_dim = embed_dim
        self.layer_norm_first = False
        pos_conv = nn.Conv1d(embed_dim, embed_dim, kernel_size=conv_pos, padding=conv_pos // 2, groups=conv_pos_groups)
        std = math.sqrt(4 / (conv_pos * embed_dim))
        nn.init.normal_(pos_conv.weight, mean=0, std=std)
        nn.init.constant_(pos_conv.bias, 0)
        pos_conv = nn.utils.weight_norm(pos_conv, name="weight", dim=2)
        self.pos_conv = nn.Sequential(pos_conv, SamePad(conv_pos), nn.GELU())
        self.layers = nn.ModuleList([TransformerSentenceEncoderLayer(embed_dim, ffn_dim, heads) for _ in range(layers)])
        self.layer_norm = nn.LayerNorm(embed_dim)

    def forward(self, x, padding_mask=None, get_hidden=False):
        x, layer_results = self.extract_features(x, padding_mask, get_hidden=get_hidden)
        return x, layer_results

    def extract_features(self, x, padding_mask=None, get_hidden=False):
        if padding_mask is not None:
            x[padding_mask] = 0

        x_conv = self.pos_conv(x.transpose(1, 2))
        x_conv = x_conv.transpose(1, 2)
        x = x + x_conv

        if not self.layer_norm_first:
            x = self.layer_norm(x)
        x = F.dropout(x, p=self.dropout, training=self.training)

        layer_results = []
        for layer in self.layers:
            x = layer(x, key_padding_mask=padding_mask)
            if get_hidden:
                layer_results.append(x)
        return x, layer_results


class DistillerModel(nn.Module):
    def __init__(self, embed_dim=32, n_tasks=2):
        super().__init__()
        self.feature_extractor = ConvFeatureExtractionModel([(16, 10, 5), (16, 3, 2), (16, 3, 2)])
        self.post_extract_proj = nn.Linear(16, embed_dim)
        self.encoder = TransformerEncoder(embed_dim=embed_dim)
        self.output_layer = nn.Linear(embed_dim, embed_dim * n_tasks)
        self.n_tasks = n_tasks

    def forward(self, wave, pad_mask):
        feat = self.feature_extractor(wave).transpose(1, 2)
        feat = self.post_extract_proj(feat)
        hidden, _ = self.encoder(feat, pad_mask)
        pred = self.output_layer(hidden)
        b, t, _ = pred.shape
        return pred.reshape(b, t, self.n_tasks, -1).permute(0, 2, 1, 3)


def compute_loss(pred, teacher_hiddens, cosine_loss=1.0):
    rec_loss = F.l1_loss(pred, teacher_hiddens)
    sim_loss = -F.logsigmoid(F.cosine_similarity(pred, teacher_hiddens, dim=-1)).mean()
    return rec_loss + cosine_loss * sim_loss


student = DistillerModel()
teacher = nn.Linear(1, 32)  # stand-in for frozen HuBERT layer outputs
optimizer = torch.optim.AdamW(student.parameters(), lr=2e-4)

wave = torch.randn(2, 1600)
with torch.no_grad():
    feat_len = student.feature_extractor(wave).shape[-1]
    pad_mask = torch.zeros(2, feat_len, dtype=torch.bool)
    pad_mask[1, feat_len - 5:] = True
    teacher_hiddens = teacher(torch.randn(2, 2, feat_len, 1))

pred = student(wave, pad_mask)
loss = compute_loss(pred, teacher_hiddens)
optimizer.zero_grad()
loss.backward()
optimizer.step()
print("loss", loss.item())
