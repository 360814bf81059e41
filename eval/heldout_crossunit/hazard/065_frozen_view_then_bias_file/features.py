import torch


def cls_token_view(hidden):
    """Take the [CLS] slot without tracking (meant for a frozen feature path)."""
    with torch.no_grad():
        return hidden[:, 0]
