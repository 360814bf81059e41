# source: https://github.com/BierOne/bottom-up-attention-vqa/issues/6 (variant: the inplace dropout moved onto the q*v product)
# Bottom-up/top-down VQA model: GRU question encoder, top-down attention, in-place dropout on the fused q*v vector.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.parametrizations import weight_norm


def fc(i, o):
    return nn.Sequential(weight_norm(nn.Linear(i, o), dim=None), nn.ReLU())


class BaseModel(nn.Module):
    def __init__(self, ntoken=40, emb=8, q_dim=16, v_dim=12, hid=16, n_ans=10, dropout=0.5):
        super().__init__()
        self.w_emb = nn.Embedding(ntoken, emb)
        self.q_emb = nn.GRU(emb, q_dim, batch_first=True)
        self.v_att_proj, self.q_att_proj = fc(v_dim, hid), fc(q_dim, hid)
        self.att_linear = weight_norm(nn.Linear(hid, 1), dim=None)
        self.q_net, self.v_net = fc(q_dim, hid), fc(v_dim, hid)
        self.classifier = nn.Sequential(weight_norm(nn.Linear(hid, 2 * hid), dim=None), nn.ReLU(),
                                        weight_norm(nn.Linear(2 * hid, n_ans), dim=None))
        self.dropout = dropout

    def forward(self, v, q):
        _, q_h = self.q_emb(self.w_emb(q))
        q_emb = q_h[-1]
        joint = self.v_att_proj(v) * self.q_att_proj(q_emb).unsqueeze(1)
        att = F.softmax(self.att_linear(joint), dim=1)
        v_emb = (att * v).sum(1)
        joint_repr = self.q_net(q_emb) * self.v_net(v_emb)
        joint_repr = F.dropout(joint_repr, self.dropout, self.training, inplace=True)
        return self.classifier(joint_repr)


def main():
    torch.manual_seed(0)
    model = BaseModel()
    optim = torch.optim.Adamax(model.parameters())
    v, q = torch.randn(4, 5, 12), torch.randint(0, 40, (4, 6))
    answers = torch.zeros(4, 10)
    answers[torch.arange(4), torch.tensor([1, 3, 3, 7])] = 1.0
    model.train()
    for epoch in range(2):
        pred = model(v, q)
        loss = F.binary_cross_entropy_with_logits(pred, answers) * answers.size(1)
        optim.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 0.25)
        optim.step()
        score = (pred.argmax(1) == answers.argmax(1)).float().mean()
        print(epoch, loss.item(), score.item())


if __name__ == "__main__":
    main()
