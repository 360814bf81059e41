import torch


def masked_softmax(vec, mask, dim=-1, mode="softmax", soft_blend=1):
    if mode == "softmax":
        vec[~mask.bool()] = 1  # culprit
        max_vec, _ = torch.max(vec, dim=dim, keepdim=True)
        vec_exp = torch.exp((vec - max_vec) * soft_blend)
        return vec_exp / vec_exp.sum(dim=dim, keepdim=True).clamp(min=1e-8)
    raise ValueError(mode)
