"""transformers 4.46.3 ``models/rwkv/modeling_rwkv.py:292`` (and ``:348``, the same in
``RwkvFeedForward``): with a state and a one-token input, ``shifted = state[1][:, :, self.layer_id]`` is
a view of the state; ``shifted * (1 - self.time_mix_key)`` saves ``shifted`` (``time_mix_key`` is a
parameter); ``state[1][:, :, self.layer_id] = hidden[:, -1]`` then writes the state, bumping the shared
version counter. Backward raises: training RWKV step by step with ``use_cache=True``. The method below
is ``RwkvSelfAttention.extract_key_value``, verbatim.
"""
import torch
from torch import nn

from _common import main


class RwkvSelfAttention(nn.Module):
    def __init__(self, hidden_size, attention_hidden_size, layer_id=0):
        super().__init__()
        self.layer_id = layer_id
        self.time_shift = nn.ZeroPad2d((0, 0, 1, -1))
        self.time_mix_key = nn.Parameter(torch.rand(1, 1, hidden_size))
        self.time_mix_value = nn.Parameter(torch.rand(1, 1, hidden_size))
        self.time_mix_receptance = nn.Parameter(torch.rand(1, 1, hidden_size))
        self.key = nn.Linear(hidden_size, attention_hidden_size, bias=False)
        self.value = nn.Linear(hidden_size, attention_hidden_size, bias=False)
        self.receptance = nn.Linear(hidden_size, attention_hidden_size, bias=False)

    def extract_key_value(self, hidden, state=None):
        # Mix hidden with the previous timestep to produce key, value, receptance
        if hidden.size(1) == 1 and state is not None:
            shifted = state[1][:, :, self.layer_id]
        else:
            shifted = self.time_shift(hidden)
            if state is not None:
                shifted[:, 0] = state[1][:, :, self.layer_id]
        key = hidden * self.time_mix_key + shifted * (1 - self.time_mix_key)
        value = hidden * self.time_mix_value + shifted * (1 - self.time_mix_value)
        receptance = hidden * self.time_mix_receptance + shifted * (1 - self.time_mix_receptance)

        key = self.key(key)
        value = self.value(value)
        receptance = torch.sigmoid(self.receptance(receptance))
        if state is not None:
            state[1][:, :, self.layer_id] = hidden[:, -1]  # culprit
        return receptance, key, value, state


def case(seq_len, with_state):
    def go():
        module = RwkvSelfAttention(8, 8)
        hidden = torch.randn(2, seq_len, 8, requires_grad=True)
        state = [torch.zeros(2, 8, 1) for _ in range(5)] if with_state else None
        receptance, key, value, _ = module.extract_key_value(hidden, state)
        (receptance.sum() + key.sum() + value.sum()).backward()
    return go


if __name__ == "__main__":
    main([
        ("one token with a state", case(1, True), True),
        ("several tokens with a state", case(4, True), False),
        ("no state", case(1, False), False),
    ])
