# source: https://github.com/qianyu-dlut/MVANet/issues/2
# MVANet MCLM (committed fix): modules still flipped to inplace=True, but the FFN clones the activation before the in-place dropout
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def get_activation_fn(activation):
    if activation == "relu":
        return F.relu
    if activation == "gelu":
        return F.gelu
    raise RuntimeError(f"activation should be relu/gelu, not {activation}.")


def make_cbr(in_dim, out_dim):
    return nn.Sequential(nn.Conv2d(in_dim, out_dim, kernel_size=3, padding=1), nn.BatchNorm2d(out_dim), nn.ReLU())


def image2patches(x):
    """b c (hg h) (wg w) -> (hg wg b) c h w"""
    b, c, H, W = x.shape
    x = x.view(b, c, 2, H // 2, 2, W // 2).permute(2, 4, 0, 1, 3, 5)
    return x.reshape(4 * b, c, H // 2, W // 2)


def patches2image(x):
    """(hg wg b) c h w -> b c (hg h) (wg w)"""
    n, c, h, w = x.shape
    b = n // 4
    x = x.view(2, 2, b, c, h, w).permute(2, 3, 0, 4, 1, 5)
    return x.reshape(b, c, 2 * h, 2 * w)


def tokens(x):
    """b c h w -> (h w) b c"""
    return x.flatten(2).permute(2, 0, 1)


class PositionEmbeddingSine:
    def __init__(self, num_pos_feats=8, temperature=10000):
        self.num_pos_feats = num_pos_feats
        self.temperature = temperature
        self.scale = 2 * math.pi

    def __call__(self, b, h, w):
        y_embed = torch.arange(1, h + 1, dtype=torch.float32).view(1, h, 1).expand(b, h, w)
        x_embed = torch.arange(1, w + 1, dtype=torch.float32).view(1, 1, w).expand(b, h, w)
        y_embed = y_embed / h * self.scale
        x_embed = x_embed / w * self.scale
        dim_t = torch.arange(self.num_pos_feats, dtype=torch.float32)
        dim_t = self.temperature ** (2 * (dim_t // 2) / self.num_pos_feats)
        pos_x = x_embed[..., None] / dim_t
        pos_y = y_embed[..., None] / dim_t
        pos_x = torch.stack((pos_x[..., 0::2].sin(), pos_x[..., 1::2].cos()), dim=4).flatten(3)
        pos_y = torch.stack((pos_y[..., 0::2].sin(), pos_y[..., 1::2].cos()), dim=4).flatten(3)
        return torch.cat((pos_y, pos_x), dim=3).permute(0, 3, 1, 2)


class MCLM(nn.Module):
    """Multi-view Complementary Localization Module"""

    def __init__(self, d_model, num_heads, pool_ratios=(1, 2)):
        super().__init__()
        self.attention = nn.ModuleList([nn.MultiheadAttention(d_model, num_heads, dropout=0.1) for _ in range(5)])
        self.linear1 = nn.Linear(d_model, d_model * 2)
        self.linear2 = nn.Linear(d_model * 2, d_model)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.dropout = nn.Dropout(0.1)
        self.dropout1 = nn.Dropout(0.1)
        self.dropout2 = nn.Dropout(0.1)
        self.activation = get_activation_fn('relu')
        self.pool_ratios = pool_ratios
        self.positional_encoding = PositionEmbeddingSine(num_pos_feats=d_model // 2)

    def forward(self, l, g):
        b, c, h, w = l.size()
        concated_locs = patches2image(l)
        pools, p_poses = [], []
        for pool_ratio in self.pool_ratios:
            tgt_hw = (round(h / pool_ratio), round(w / pool_ratio))
            pool = F.adaptive_avg_pool2d(concated_locs, tgt_hw)
            pools.append(tokens(pool))
            p_poses.append(tokens(self.positional_encoding(pool.shape[0], pool.shape[2], pool.shape[3])))
        pools = torch.cat(pools, 0)
        p_poses = torch.cat(p_poses, 0)
        g_pos = tokens(self.positional_encoding(g.shape[0], g.shape[2], g.shape[3]))

        # attention between glb (q) & multisensory concated-locs (k,v)
        g_hw_b_c = tokens(g)
        g_hw_b_c = g_hw_b_c + self.dropout1(self.attention[0](g_hw_b_c + g_pos, pools + p_poses, pools)[0])
        g_hw_b_c = self.norm1(g_hw_b_c)
        g_hw_b_c = g_hw_b_c + self.dropout2(self.linear2(self.dropout(self.activation(self.linear1(g_hw_b_c)).clone())))
        g_hw_b_c = self.norm2(g_hw_b_c)

        # attention between origin locs (q) & refreshed glb (k,v)
        l_hw_b_c = tokens(l)
        _g = g_hw_b_c.permute(1, 2, 0).reshape(1, c, h, w)
        _g_hw_b_c = tokens(image2patches(F.interpolate(_g, scale_factor=2, mode='nearest')))
        outputs_re = [self.attention[i + 1](_l, _gg, _gg)[0]
                      for i, (_l, _gg) in enumerate(zip(l_hw_b_c.chunk(4, dim=1), _g_hw_b_c.chunk(4, dim=1)))]
        outputs_re = torch.cat(outputs_re, 1)
        l_hw_b_c = self.norm1(l_hw_b_c + self.dropout1(outputs_re))
        l = torch.cat((l_hw_b_c, g_hw_b_c), 1)
        return l.permute(1, 2, 0).reshape(5, c, h, w)


class inf_MVANet(nn.Module):
    def __init__(self, emb_dim=16):
        super().__init__()
        self.backbone = nn.Sequential(make_cbr(3, emb_dim), nn.MaxPool2d(2), make_cbr(emb_dim, emb_dim), nn.MaxPool2d(2))
        self.multifieldcrossatt = MCLM(emb_dim, 2, (1, 2))
        self.conv1 = make_cbr(emb_dim, emb_dim)
        self.output = nn.Conv2d(emb_dim, 1, kernel_size=3, padding=1)
        for m in self.modules():
            if isinstance(m, nn.ReLU) or isinstance(m, nn.Dropout):
                m.inplace = True

    def forward(self, x):
        loc = image2patches(x)
        glb = F.interpolate(x, scale_factor=0.5, mode='bilinear')
        feats = self.backbone(torch.cat((loc, glb), dim=0))
        loc_e5, glb_e5 = feats.split([4, 1], dim=0)
        e5 = self.multifieldcrossatt(loc_e5, glb_e5)
        e5 = self.conv1(e5)
        loc_e1, glb_e1 = e5.split([4, 1], dim=0)
        out = patches2image(loc_e1) + F.interpolate(glb_e1, scale_factor=2, mode='bilinear')
        out = F.interpolate(self.output(out), size=x.shape[-2:], mode='bilinear')
        return out


def structure_loss(pred, mask):
    wbce = F.binary_cross_entropy_with_logits(pred, mask)
    p = torch.sigmoid(pred)
    inter = (p * mask).sum(dim=(2, 3))
    union = (p + mask).sum(dim=(2, 3))
    wiou = 1 - (inter + 1) / (union - inter + 1)
    return wbce + wiou.mean()


model = inf_MVANet()
model.train()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
image = torch.rand(1, 3, 32, 32)
gt = (torch.rand(1, 1, 32, 32) > 0.5).float()
pred = model(image)
loss = structure_loss(pred, gt)
optimizer.zero_grad()
loss.backward()
optimizer.step()
print("loss", loss.item())
