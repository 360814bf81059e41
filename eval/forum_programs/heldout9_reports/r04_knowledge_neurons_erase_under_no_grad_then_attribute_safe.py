# source: https://github.com/Hunter-DDM/knowledge-neurons/issues/14 (fixed script wraps the edit in torch.no_grad())
# Knowledge erasing: zero-shift FFN value columns under no_grad, then re-score and take gradients for attribution.
import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, HID, FFN, LAYERS = 50, 16, 32, 2


class Layer(nn.Module):
    def __init__(self):
        super().__init__()
        self.intermediate = nn.Linear(HID, FFN)
        self.output_dense = nn.Linear(FFN, HID)

    def forward(self, h, scale=None):
        act = F.gelu(self.intermediate(h))
        if scale is not None:
            act = act * scale
        return h + self.output_dense(act), act


class TinyBert(nn.Module):
    def __init__(self):
        super().__init__()
        self.word_embeddings = nn.Embedding(VOCAB, HID)
        self.layers = nn.ModuleList([Layer() for _ in range(LAYERS)])
        self.cls = nn.Linear(HID, VOCAB)

    def forward(self, input_ids, tgt_pos, tgt_layer=None, scale=None):
        h = self.word_embeddings(input_ids)
        acts = []
        for i, lyr in enumerate(self.layers):
            h, act = lyr(h, scale if i == tgt_layer else None)
            acts.append(act)
        return acts, self.cls(h[:, tgt_pos])


def integrated_grad(model, input_ids, tgt_pos, tgt_layer, label, steps=4):
    grads = 0.0
    for k in range(1, steps + 1):
        scale = torch.full((FFN,), k / steps, requires_grad=True)
        _, logits = model(input_ids, tgt_pos, tgt_layer, scale)
        prob = F.softmax(logits, dim=-1)[0, label]
        g, = torch.autograd.grad(prob, scale)
        grads = grads + g
    return grads / steps


def main():
    torch.manual_seed(0)
    model = TinyBert()
    input_ids = torch.randint(0, VOCAB, (1, 6))
    tgt_pos, tgt_label_id = 3, 7
    attr = integrated_grad(model, input_ids, tgt_pos, 1, tgt_label_id)
    kn_bag = [(1, int(i)) for i in attr.topk(2).indices]
    ori_pred_emb = model.word_embeddings.weight[tgt_label_id]
    with torch.no_grad():
        for layer, pos in kn_bag:
            value_norm = torch.norm(model.layers[layer].output_dense.weight[:, pos])
            lam = value_norm / torch.norm(ori_pred_emb)
            model.layers[layer].output_dense.weight[:, pos] -= ori_pred_emb * lam
    _, logits = model(input_ids, tgt_pos)
    new_prob = F.softmax(logits, dim=-1)[0, tgt_label_id]
    new_prob.backward()
    print(kn_bag, new_prob.item(), model.cls.weight.grad.abs().sum().item())


if __name__ == "__main__":
    main()
