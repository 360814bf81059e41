def apply_reset_(state, r):
    """Reset-gate the hidden state before the candidate projection."""
    state.mul_(r)  # culprit
    return state
