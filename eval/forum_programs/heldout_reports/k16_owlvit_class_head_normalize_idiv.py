# source: https://github.com/huggingface/transformers/pull/24529 (OwlViTClassPredictionHead: image_class_embeds /= torch.linalg.norm(...) + 1e-6)
import torch
from torch import nn


class OwlViTClassPredictionHead(nn.Module):
    def __init__(self, vision_dim, text_dim):
        super().__init__()
        self.dense0 = nn.Linear(vision_dim, text_dim)
        self.logit_shift = nn.Linear(vision_dim, 1)
        self.logit_scale = nn.Linear(vision_dim, 1)
        self.elu = nn.ELU()

    def forward(self, image_embeds, query_embeds, query_mask):
        image_class_embeds = self.dense0(image_embeds)
        # Normalize image and text features
        image_class_embeds /= torch.linalg.norm(image_class_embeds, dim=-1, keepdim=True) + 1e-6  # culprit
        query_embeds /= torch.linalg.norm(query_embeds, dim=-1, keepdim=True) + 1e-6  # culprit
        pred_logits = torch.einsum("...pd,...qd->...pq", image_class_embeds, query_embeds)
        logit_shift = self.logit_shift(image_embeds)
        logit_scale = self.elu(self.logit_scale(image_embeds)) + 1
        pred_logits = (pred_logits + logit_shift) * logit_scale
        if query_mask is not None:
            pred_logits = torch.where(query_mask[:, None, :] == 0, -1e6, pred_logits)
        return pred_logits, image_class_embeds


torch.manual_seed(0)
head = OwlViTClassPredictionHead(6, 4)
text_proj = nn.Linear(5, 4)
image_embeds = torch.randn(2, 3, 6)
query_embeds = text_proj(torch.randn(2, 2, 5))
query_mask = torch.ones(2, 2)
logits, _ = head(image_embeds, query_embeds, query_mask)
loss = logits.sigmoid().mean()
loss.backward()
print(loss.item())
