# Source: NVlabs/VILA PR #199 and modelscope/ms-swift#4613 (inputs_embeds +=
# image_embeds.mean() * 0. on an embedding tensor that is a leaf requiring grad).
# Unit kind: function -- the merge helper adds into the embeddings it is given.
import torch
import torch.nn as nn

torch.manual_seed(0)


def merge_modalities(inputs_embeds, image_embeds):
    if image_embeds is not None:
        inputs_embeds += image_embeds.mean() * 0.0  # culprit
    return inputs_embeds


soft_prompt = nn.Parameter(torch.randn(1, 4, 8))
vision_proj = nn.Linear(6, 8)
image_embeds = vision_proj(torch.randn(1, 2, 6))
embeds = merge_modalities(soft_prompt, image_embeds)
embeds.sum().backward()
print("done")
