# Source: https://github.com/NVlabs/VILA/pull/199 (replacing `+=` with `text_embeds = text_embeds + (...)` avoids "a leaf Variable that requires grad is being used in an in-place operation")
# Unit kind: cross-file
import torch

from prompts import PromptLearner

torch.manual_seed(0)
learner = PromptLearner(n_ctx=4, dim=8)
pos_embed = torch.randn(4, 8) * 0.02
prompts = learner()
prompts += pos_embed  # culprit
score = prompts.sum()
score.backward()
print("ok", float(score))
