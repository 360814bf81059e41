def mask_padded_keys(dots, key_mask):
    """Padded keys get -inf-like scores before the softmax."""
    dots.masked_fill_(~key_mask[:, None, :], -1e9)
    return dots
