# source: https://github.com/Hunter-DDM/knowledge-neurons/issues/14 (6_edit_knowledge_sampled.py, lines 313-315)
# Knowledge editing: after attributing knowledge neurons, subtract/add word embeddings into FFN value columns of the weight.
import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, HID, FFN, LAYERS = 50, 16, 32, 2


class FFNOutput(nn.Module):
    def __init__(self):
        super().__init__()
        self.dense = nn.Linear(FFN, HID)


class Layer(nn.Module):
    def __init__(self):
        super().__init__()
        self.intermediate = nn.Linear(HID, FFN)
        self.output = FFNOutput()

    def forward(self, h):
        return h + self.output.dense(F.gelu(self.intermediate(h)))


class TinyBert(nn.Module):
    def __init__(self):
        super().__init__()
        self.word_embeddings = nn.Embedding(VOCAB, HID)
        self.layer = nn.ModuleList([Layer() for _ in range(LAYERS)])
        self.cls = nn.Linear(HID, VOCAB)

    def forward(self, input_ids, tgt_pos):
        h = self.word_embeddings(input_ids)
        for lyr in self.layer:
            h = lyr(h)
        return self.cls(h[:, tgt_pos])


def main():
    torch.manual_seed(0)
    model = TinyBert()
    input_ids = torch.randint(0, VOCAB, (1, 6))
    tgt_pos, tgt_label_id = 3, 7
    logits = model(input_ids, tgt_pos)
    ori_pred_label_id = logits.argmax(-1)
    # pretend attribution found these (layer, neuron) pairs
    kn_bag = [(0, 5), (1, 11)]
    norm_lambda1, norm_lambda2 = 1.0, 1.0
    ori_pred_emb = model.word_embeddings.weight[ori_pred_label_id.item()]
    tgt_emb = model.word_embeddings.weight[tgt_label_id]
    lambda_list_1, lambda_list_2 = [], []
    ori_pred_emb_norm = torch.norm(ori_pred_emb)
    tgt_emb_norm = torch.norm(tgt_emb)
    for layer, pos in kn_bag:
        value_norm = torch.norm(model.layer[layer].output.dense.weight[:, pos])
        lambda_list_1.append(value_norm / ori_pred_emb_norm * norm_lambda1)
        lambda_list_2.append(value_norm / tgt_emb_norm * norm_lambda2)
    for i, (layer, pos) in enumerate(kn_bag):
        model.layer[layer].output.dense.weight[:, pos] -= ori_pred_emb * lambda_list_1[i]  # culprit
        model.layer[layer].output.dense.weight[:, pos] += tgt_emb * lambda_list_2[i]
    logits = model(input_ids, tgt_pos)
    new_tgt_prob = F.softmax(logits, dim=-1)[0, tgt_label_id]
    new_tgt_prob.backward()
    print("new tgt prob", new_tgt_prob.item())


if __name__ == "__main__":
    main()
