# Source: Hunter-DDM/knowledge-neurons#14 (weight[:, pos] -= ori_pred_emb * lambda on a
# model's dense.weight: "a view of a leaf Variable that requires grad is being used in an
# in-place operation").
# Unit kind: function -- edit_neuron() writes into the layer passed by the caller.
import torch
import torch.nn as nn

torch.manual_seed(0)


def edit_neuron(layer, pos, ori_emb, tgt_emb, lam1, lam2):
    w = layer.weight
    w[:, pos] -= ori_emb * lam1  # culprit
    w[:, pos] += tgt_emb * lam2


ffn_out = nn.Linear(16, 8)
edit_neuron(ffn_out, 3, torch.randn(8), torch.randn(8), 1.0, 2.0)
print("done")
