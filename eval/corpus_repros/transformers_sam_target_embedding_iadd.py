"""transformers 4.46.3 ``models/sam/modeling_sam.py:382`` (found by the tenth landing's in-order
``nn.ModuleList`` layers): ``SamTwoWayTransformer.forward`` adds ``target_embedding`` to ``queries`` in
place at the top of every layer (``queries += target_embedding``). From the second layer on, ``queries``
is what the previous ``SamTwoWayAttentionBlock`` returned, and that block's last cross attention
(``cross_attn_image_to_token(query=key, key=query, value=queries)``) ran ``v_proj`` -- a Linear, which
saves its input -- on it. Backward raises whenever a target embedding is given with two or more layers
and the decoder is trained; without one (the default), nothing is written. The classes below are the
library's, verbatim but for the config (plain numbers) and the parts a call here never reaches.
"""
import torch
from torch import Tensor, nn

from _common import main


class SamMLPBlock(nn.Module):
    def __init__(self, hidden_size, mlp_dim):
        super().__init__()
        self.lin1 = nn.Linear(hidden_size, mlp_dim)
        self.lin2 = nn.Linear(mlp_dim, hidden_size)
        self.act = nn.ReLU()

    def forward(self, hidden_states):
        hidden_states = self.lin1(hidden_states)
        hidden_states = self.act(hidden_states)
        hidden_states = self.lin2(hidden_states)
        return hidden_states


class SamAttention(nn.Module):
    def __init__(self, hidden_size, num_attention_heads, downsample_rate=1):
        super().__init__()
        self.hidden_size = hidden_size
        self.internal_dim = hidden_size // downsample_rate
        self.num_attention_heads = num_attention_heads
        self.q_proj = nn.Linear(self.hidden_size, self.internal_dim)
        self.k_proj = nn.Linear(self.hidden_size, self.internal_dim)
        self.v_proj = nn.Linear(self.hidden_size, self.internal_dim)
        self.out_proj = nn.Linear(self.internal_dim, self.hidden_size)

    def _separate_heads(self, hidden_states: Tensor, num_attention_heads: int) -> Tensor:
        batch, point_batch_size, n_tokens, channel = hidden_states.shape
        c_per_head = channel // num_attention_heads
        hidden_states = hidden_states.reshape(batch * point_batch_size, n_tokens, num_attention_heads, c_per_head)
        return hidden_states.transpose(1, 2)

    def _recombine_heads(self, hidden_states: Tensor, point_batch_size: int) -> Tensor:
        batch, n_heads, n_tokens, c_per_head = hidden_states.shape
        hidden_states = hidden_states.transpose(1, 2)
        return hidden_states.reshape(batch // point_batch_size, point_batch_size, n_tokens, n_heads * c_per_head)

    def forward(self, query: Tensor, key: Tensor, value: Tensor, attention_similarity: Tensor = None) -> Tensor:
        query = self.q_proj(query)
        key = self.k_proj(key)
        value = self.v_proj(value)
        point_batch_size = query.shape[1]
        query = self._separate_heads(query, self.num_attention_heads)
        key = self._separate_heads(key, self.num_attention_heads)
        value = self._separate_heads(value, self.num_attention_heads)
        _, _, _, c_per_head = query.shape
        attn = query @ key.permute(0, 1, 3, 2)
        attn = attn / (c_per_head**0.5)
        attn = torch.softmax(attn, dim=-1)
        out = attn @ value
        out = self._recombine_heads(out, point_batch_size)
        out = self.out_proj(out)
        return out


class SamTwoWayAttentionBlock(nn.Module):
    def __init__(self, hidden_size=8, num_heads=2, mlp_dim=16, skip_first_layer_pe=False):
        super().__init__()
        self.self_attn = SamAttention(hidden_size, num_heads, downsample_rate=1)
        self.layer_norm1 = nn.LayerNorm(hidden_size)
        self.cross_attn_token_to_image = SamAttention(hidden_size, num_heads, downsample_rate=2)
        self.layer_norm2 = nn.LayerNorm(hidden_size)
        self.mlp = SamMLPBlock(hidden_size, mlp_dim)
        self.layer_norm3 = nn.LayerNorm(hidden_size)
        self.layer_norm4 = nn.LayerNorm(hidden_size)
        self.cross_attn_image_to_token = SamAttention(hidden_size, num_heads, downsample_rate=2)
        self.skip_first_layer_pe = skip_first_layer_pe

    def forward(self, queries, keys, query_point_embedding, key_point_embedding, attention_similarity,
                output_attentions=False):
        if self.skip_first_layer_pe:
            queries = self.self_attn(query=queries, key=queries, value=queries)
        else:
            query = queries + query_point_embedding
            attn_out = self.self_attn(query=query, key=query, value=queries)
            queries = queries + attn_out
        queries = self.layer_norm1(queries)
        query = queries + query_point_embedding
        key = keys + key_point_embedding
        attn_out = self.cross_attn_token_to_image(query=query, key=key, value=keys,
                                                  attention_similarity=attention_similarity)
        queries = queries + attn_out
        queries = self.layer_norm2(queries)
        mlp_out = self.mlp(queries)
        queries = queries + mlp_out
        queries = self.layer_norm3(queries)
        query = queries + query_point_embedding
        key = keys + key_point_embedding
        attn_out = self.cross_attn_image_to_token(query=key, key=query, value=queries)
        keys = keys + attn_out
        keys = self.layer_norm4(keys)
        outputs = (queries, keys)
        outputs = outputs + (None,)
        return outputs


def case(num_layers, with_target):
    def go():
        layers = nn.ModuleList()
        for i in range(num_layers):
            layers.append(SamTwoWayAttentionBlock(skip_first_layer_pe=(i == 0)))
        point_embeddings = torch.randn(1, 1, 3, 8)
        image_embeddings = torch.randn(1, 1, 5, 8)
        image_positional_embeddings = torch.randn(1, 1, 5, 8)
        target_embedding = torch.randn(1, 1, 3, 8) if with_target else None
        # SamTwoWayTransformer.forward, verbatim from here
        queries = point_embeddings
        keys = image_embeddings
        for layer in layers:
            if target_embedding is not None:
                queries += target_embedding  # culprit
            queries, keys, attention_outputs = layer(
                queries=queries,
                keys=keys,
                query_point_embedding=point_embeddings,
                key_point_embedding=image_positional_embeddings,
                attention_similarity=None,
                output_attentions=False,
            )
        (queries.sum() + keys.sum()).backward()
    return go


if __name__ == "__main__":
    main([
        ("two layers, a target embedding", case(2, True), True),
        ("one layer, a target embedding", case(1, True), False),
        ("two layers, no target embedding", case(2, False), False),
    ])
