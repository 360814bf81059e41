def zero_padded_keys(attn, key_mask):
    """Drop the attention paid to padded keys."""
    attn.masked_fill_(~key_mask[:, None, :], 0.0)  # culprit
    return attn
