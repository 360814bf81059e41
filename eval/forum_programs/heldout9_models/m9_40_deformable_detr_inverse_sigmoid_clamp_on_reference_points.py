# source: Deformable DETR iterative box refinement (fundamentalvision/Deformable-DETR deformable_transformer.py, util/misc.py inverse_sigmoid) with clamp_ in the helper
# DETR-style decoder with box refinement; inverse_sigmoid clamps in place the (detached) sigmoid reference points.
import torch
import torch.nn as nn
import torch.nn.functional as F


def inverse_sigmoid(x, eps=1e-5):
    x = x.clamp_(min=0, max=1)  # culprit
    x1, x2 = x.clamp(min=eps), (1 - x).clamp(min=eps)
    return torch.log(x1 / x2)


class MLP(nn.Module):
    def __init__(self, d_in, d_hidden, d_out, n):
        super().__init__()
        dims = [d_in] + [d_hidden] * (n - 1)
        self.layers = nn.ModuleList(nn.Linear(a, b) for a, b in zip(dims, dims[1:] + [d_out]))

    def forward(self, x):
        for i, layer in enumerate(self.layers):
            x = F.relu(layer(x)) if i < len(self.layers) - 1 else layer(x)
        return x


class RefineDecoder(nn.Module):
    def __init__(self, d=16, n_layers=3, n_queries=5):
        super().__init__()
        self.query_embed = nn.Embedding(n_queries, 2 * d)
        self.reference_points = nn.Linear(d, 4)
        self.layers = nn.ModuleList(nn.TransformerDecoderLayer(d, 2, 32, dropout=0.0, batch_first=True) for _ in range(n_layers))
        self.ref_proj = nn.Linear(4, d)
        self.bbox_embed = nn.ModuleList(MLP(d, d, 4, 3) for _ in range(n_layers))

    def forward(self, memory):
        query_pos, tgt = self.query_embed.weight.unsqueeze(0).expand(memory.size(0), -1, -1).chunk(2, dim=-1)
        reference_points = self.reference_points(query_pos).sigmoid()
        output, boxes = tgt, []
        for lid, layer in enumerate(self.layers):
            output = layer(output + query_pos + self.ref_proj(reference_points), memory)
            tmp = self.bbox_embed[lid](output)
            new_reference_points = (tmp + inverse_sigmoid(reference_points)).sigmoid()
            reference_points = new_reference_points.detach()
            boxes.append(new_reference_points)
        return torch.stack(boxes)


torch.manual_seed(0)
decoder = RefineDecoder()
opt = torch.optim.AdamW(decoder.parameters(), lr=1e-4)
memory = torch.randn(2, 12, 16)
gt_boxes = torch.rand(2, 5, 4)
pred_boxes = decoder(memory)
loss = sum(F.l1_loss(b, gt_boxes) for b in pred_boxes)
opt.zero_grad()
loss.backward()
opt.step()
print(loss.item())
