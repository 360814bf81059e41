# source: DETR transformer decoder cross-attention with an attention-map hook for visualisation (facebookresearch/detr style)
# a .detach() of the softmax attention map is max-normalised in place for plotting; detach shares storage with the saved probs
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class PlainSGD:
    """Minimal SGD(+momentum) so the script does not pay torch.optim's start-up cost."""

    def __init__(self, params, lr=0.01, momentum=0.0):
        self.params = list(params)
        self.lr, self.momentum = lr, momentum
        self.bufs = [None] * len(self.params)

    def zero_grad(self):
        for p in self.params:
            p.grad = None

    @torch.no_grad()
    def step(self):
        for i, p in enumerate(self.params):
            if p.grad is None:
                continue
            d = p.grad
            if self.momentum:
                if self.bufs[i] is None:
                    self.bufs[i] = d.clone()
                else:
                    self.bufs[i].mul_(self.momentum).add_(d)
                d = self.bufs[i]
            p.add_(d, alpha=-self.lr)


class CrossAttentionWithMaps(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.h, self.dh = heads, dim // heads
        self.q = nn.Linear(dim, dim)
        self.kv = nn.Linear(dim, 2 * dim)
        self.o = nn.Linear(dim, dim)
        self.keep_attn = True
        self.last_attn = None

    def forward(self, tgt, memory, pos):
        B, Q, C = tgt.shape
        S = memory.size(1)
        q = self.q(tgt).view(B, Q, self.h, self.dh).transpose(1, 2)
        k, v = self.kv(memory + pos).view(B, S, 2, self.h, self.dh).permute(2, 0, 3, 1, 4)
        attn = F.softmax(q @ k.transpose(-2, -1) * self.dh ** -0.5, dim=-1)
        if self.keep_attn:
            vis = attn.detach()
            vis.div_(vis.amax(dim=-1, keepdim=True))  # culprit
            self.last_attn = vis.mean(1)
        out = (attn @ v).transpose(1, 2).reshape(B, Q, C)
        return self.o(out)


class DecoderLayer(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.cross_attn = CrossAttentionWithMaps(dim, heads)
        self.norm1, self.norm2, self.norm3 = nn.LayerNorm(dim), nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.ffn = nn.Sequential(nn.Linear(dim, 2 * dim), nn.ReLU(inplace=True), nn.Linear(2 * dim, dim))

    def forward(self, tgt, memory, pos, query_pos):
        q = tgt + query_pos
        tgt = self.norm1(tgt + self.self_attn(q, q, tgt, need_weights=False)[0])
        tgt = self.norm2(tgt + self.cross_attn(tgt + query_pos, memory, pos))
        return self.norm3(tgt + self.ffn(tgt))


class MiniDETR(nn.Module):
    def __init__(self, dim=32, heads=4, queries=5, classes=4):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, dim, 4, 4), nn.ReLU(inplace=True), nn.Conv2d(dim, dim, 3, padding=1))
        self.pos = nn.Parameter(torch.randn(1, 16, dim) * 0.02)
        self.query_embed = nn.Embedding(queries, dim)
        self.layers = nn.ModuleList(DecoderLayer(dim, heads) for _ in range(2))
        self.class_embed = nn.Linear(dim, classes + 1)
        self.bbox_embed = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(inplace=True), nn.Linear(dim, 4))

    def forward(self, img):
        memory = self.backbone(img).flatten(2).transpose(1, 2)
        B = img.size(0)
        query_pos = self.query_embed.weight[None].expand(B, -1, -1)
        tgt = torch.zeros_like(query_pos)
        for layer in self.layers:
            tgt = layer(tgt, memory, self.pos, query_pos)
        return self.class_embed(tgt), self.bbox_embed(tgt).sigmoid()


def set_loss(logits, boxes, tgt_cls, tgt_boxes):
    # fixed (pre-matched) assignment instead of Hungarian matching
    ce = F.cross_entropy(logits.flatten(0, 1), tgt_cls.flatten())
    matched = tgt_cls.flatten() < logits.size(-1) - 1
    l1 = F.l1_loss(boxes.flatten(0, 1)[matched], tgt_boxes.flatten(0, 1)[matched])
    return ce + 5 * l1


if __name__ == "__main__":
    model = MiniDETR()
    opt = PlainSGD(model.parameters(), lr=0.0001)
    img = torch.randn(2, 3, 16, 16)
    tgt_cls = torch.tensor([[0, 2, 4, 4, 4], [1, 4, 4, 4, 4]])
    tgt_boxes = torch.rand(2, 5, 4)
    logits, boxes = model(img)
    loss = set_loss(logits, boxes, tgt_cls, tgt_boxes)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("loss", loss.item(), model.layers[0].cross_attn.last_attn.shape)
