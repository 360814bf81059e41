# source: https://github.com/idiap/fast-transformers/pull/10 (recurrent linear attention updates Zi and Si in place across steps)
import torch
from torch.nn import Module, Linear


def elu_feature_map(x):
    return torch.nn.functional.elu(x) + 1


class RecurrentLinearAttention(Module):
    def __init__(self, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.feature_map = elu_feature_map

    def forward(self, query, key, value, state=None):
        Q = self.feature_map(query)
        K = self.feature_map(key)
        N, H, D = Q.shape
        _, _, M = value.shape
        if state is None:
            Si = query.new_zeros((N, H, D, M))
            Zi = query.new_zeros((N, H, D))
        else:
            Si, Zi = state
        Zi += K  # culprit
        Si += torch.einsum("nhd,nhm->nhdm", K, value)  # culprit
        Z = 1. / (torch.einsum("nhd,nhd->nh", Q, Zi) + self.eps)
        V = torch.einsum("nhd,nhdm,nh->nhm", Q, Si, Z)
        return V, [Si, Zi]


class RecurrentAttentionLayer(Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.inner_attention = RecurrentLinearAttention()
        self.query_projection = Linear(d_model, d_model)
        self.key_projection = Linear(d_model, d_model)
        self.value_projection = Linear(d_model, d_model)
        self.out_projection = Linear(d_model, d_model)
        self.n_heads = n_heads

    def forward(self, query, key, value, state=None):
        N, D = query.shape
        H = self.n_heads
        query = self.query_projection(query).view(N, H, -1)
        key = self.key_projection(key).view(N, H, -1)
        value = self.value_projection(value).view(N, H, -1)
        new_value, state = self.inner_attention(query, key, value, state)
        return self.out_projection(new_value.view(N, -1)), state


torch.manual_seed(0)
layer = RecurrentAttentionLayer(8, 2)
x = torch.randn(5, 2, 8)
state = None
outputs = []
for t in range(x.shape[0]):
    y, state = layer(x[t], x[t], x[t], state)
    outputs.append(y)
loss = torch.stack(outputs).pow(2).mean()
loss.backward()
print(loss.item())
