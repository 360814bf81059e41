"""transformers 4.46.3 ``models/rwkv/modeling_rwkv.py:308-310`` (found by the ninth landing's argument-save
summaries): ``RwkvSelfAttention.forward`` passes views of the state (``s[:, :, self.layer_id]``) to
``rwkv_linear_attention``, whose CPU fallback ``rwkv_linear_attention_cpu`` (below, verbatim) multiplies
them (``e1 * num_state`` saves ``num_state`` for ``e1``'s gradient); the forward then writes the new
state back into ``state[2..4]`` in place, bumping the version counter those views share. Backward raises
when RWKV is trained with a state on the CPU path (generation runs it under no_grad, where nothing is
saved).
"""
import torch

from _common import main


def rwkv_linear_attention_cpu(time_decay, time_first, key, value, state=None, return_state=False):
    # For CPU fallback. Will be slower and probably take more memory than the custom CUDA kernel if not executed
    # within a torch.no_grad.
    _, seq_length, _ = key.size()
    output = torch.zeros_like(key)

    if state is None:
        num_state = torch.zeros_like(key[:, 0], dtype=torch.float32)
        den_state = torch.zeros_like(key[:, 0], dtype=torch.float32)
        max_state = torch.zeros_like(key[:, 0], dtype=torch.float32) - 1e38
    else:
        num_state, den_state, max_state = state
    # For numerical stability
    #    real_numerator_state = num_state * torch.exp(max_state)
    #    real_denominator_state = den_state * torch.exp(max_state)

    time_decay = -torch.exp(time_decay)

    for current_index in range(seq_length):
        current_key = key[:, current_index].float()
        current_value = value[:, current_index]

        # wkv computation at time t
        max_for_output = torch.maximum(max_state, current_key + time_first)
        e1 = torch.exp(max_state - max_for_output)
        e2 = torch.exp(current_key + time_first - max_for_output)
        numerator = e1 * num_state + e2 * current_value
        denominator = e1 * den_state + e2
        output[:, current_index] = (numerator / denominator).to(output.dtype)

        # Update state for next iteration
        max_for_state = torch.maximum(max_state + time_decay, current_key)
        e1 = torch.exp(max_state + time_decay - max_for_state)
        e2 = torch.exp(current_key - max_for_state)
        num_state = e1 * num_state + e2 * current_value
        den_state = e1 * den_state + e2
        max_state = max_for_state

    if return_state or state is not None:
        state = [num_state, den_state, max_state]

    return output, state



def case(with_state, write_back):
    def go():
        time_decay = torch.randn(4, requires_grad=True)
        time_first = torch.randn(4, requires_grad=True)
        key = torch.randn(1, 3, 4, requires_grad=True)
        value = torch.randn(1, 3, 4, requires_grad=True)
        state = [torch.zeros(1, 4, 2) for _ in range(5)] if with_state else None
        layer_state = tuple(s[:, :, 0] for s in state[2:]) if state is not None else None
        rwkv, layer_state = rwkv_linear_attention_cpu(time_decay, time_first, key, value, state=layer_state)
        if write_back and layer_state is not None:
            # RwkvSelfAttention.forward, verbatim but for self.layer_id
            state[2][:, :, 0] = layer_state[0]  # culprit
            state[3][:, :, 0] = layer_state[1]  # culprit
            state[4][:, :, 0] = layer_state[2]  # culprit
        rwkv.sum().backward()
    return go


if __name__ == "__main__":
    main([
        ("a state, written back", case(True, True), True),
        ("a state, not written back", case(True, False), False),
        ("no state", case(False, True), False),
    ])
