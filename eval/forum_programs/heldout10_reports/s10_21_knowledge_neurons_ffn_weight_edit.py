# source: https://github.com/Hunter-DDM/knowledge-neurons/issues/14
# knowledge-neuron editing: after attribution, a helper edits output.dense.weight[:, pos] in place by -ori_emb*l1 and +tgt_emb*l2
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

VOCAB, HID, INTER, N_LAYERS, SEQ = 40, 16, 32, 2, 6


class Intermediate(nn.Module):
    def __init__(self):
        super().__init__()
        self.dense = nn.Linear(HID, INTER)

    def forward(self, h, tmp_score=None):
        act = F.gelu(self.dense(h))
        if tmp_score is not None:
            act = torch.cat([act[:, :-1, :], act[:, -1:, :] * tmp_score], dim=1)
        return act


class Output(nn.Module):
    def __init__(self):
        super().__init__()
        self.dense = nn.Linear(INTER, HID)
        self.LayerNorm = nn.LayerNorm(HID)

    def forward(self, inter, h):
        return self.LayerNorm(self.dense(inter) + h)


class Layer(nn.Module):
    def __init__(self):
        super().__init__()
        self.attention = nn.MultiheadAttention(HID, 2, batch_first=True)
        self.intermediate = Intermediate()
        self.output = Output()

    def forward(self, h, tmp_score=None):
        a, _ = self.attention(h, h, h, need_weights=False)
        h = h + a
        return self.output(self.intermediate(h, tmp_score), h)


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer = nn.ModuleList([Layer() for _ in range(N_LAYERS)])


class Bert(nn.Module):
    def __init__(self):
        super().__init__()
        self.word_embeddings = nn.Embedding(VOCAB, HID)
        self.encoder = Encoder()


class BertForMaskedLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.bert = Bert()
        self.cls = nn.Linear(HID, VOCAB)

    def forward(self, input_ids, tgt_layer=None, tmp_score=None):
        h = self.bert.word_embeddings(input_ids)
        for i, layer in enumerate(self.bert.encoder.layer):
            h = layer(h, tmp_score if i == tgt_layer else None)
        return self.cls(h[:, -1])


def integrated_gradients(model, input_ids, gold_id, tgt_layer, steps=4):
    scores = torch.zeros(INTER)
    for k in range(1, steps + 1):
        tmp_score = torch.full((INTER,), k / steps, requires_grad=True)
        logits = model(input_ids, tgt_layer=tgt_layer, tmp_score=tmp_score)
        prob = F.softmax(logits, dim=-1)[0, gold_id]
        grad, = torch.autograd.grad(prob, tmp_score)
        scores += grad / steps
    return scores


def edit_neuron(weight, pos, delta):
    weight[:, pos] += delta  # culprit


model = BertForMaskedLM()
model.eval()
input_ids = torch.randint(0, VOCAB, (1, SEQ))
ori_id, tgt_id = 3, 7

kn = []
for layer in range(N_LAYERS):
    attr = integrated_gradients(model, input_ids, ori_id, layer)
    top = attr.topk(2).indices.tolist()
    kn.extend((layer, pos) for pos in top)
print("knowledge neurons:", kn)

ori_pred_emb = model.bert.word_embeddings.weight[ori_id]
tgt_emb = model.bert.word_embeddings.weight[tgt_id]
lambda_list_1 = [1.0] * len(kn)
lambda_list_2 = [8.0] * len(kn)
for i, (layer, pos) in enumerate(kn):
    w = model.bert.encoder.layer[layer].output.dense.weight
    edit_neuron(w, pos, -ori_pred_emb * lambda_list_1[i])
    edit_neuron(w, pos, tgt_emb * lambda_list_2[i])

with torch.no_grad():
    prob = F.softmax(model(input_ids), dim=-1)[0]
print(f"after edit: p(ori)={prob[ori_id]:.4f} p(tgt)={prob[tgt_id]:.4f}")
