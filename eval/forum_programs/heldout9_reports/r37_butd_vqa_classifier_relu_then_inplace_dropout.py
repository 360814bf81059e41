# source: https://github.com/BierOne/bottom-up-attention-vqa/issues/6 (model/classifier.py: nn.ReLU() followed by nn.Dropout(dropout, inplace=True))
# Bottom-up/top-down VQA answer classifier over the fused q*v representation, trained with soft-score BCE.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.parametrizations import weight_norm


class FCNet(nn.Module):
    def __init__(self, dims, dropout=0.0):
        super().__init__()
        layers = []
        for i in range(len(dims) - 1):
            layers.append(weight_norm(nn.Linear(dims[i], dims[i + 1]), dim=None))
            layers.append(nn.ReLU())
            if dropout > 0:
                layers.append(nn.Dropout(dropout))
        self.main = nn.Sequential(*layers)

    def forward(self, x):
        return self.main(x)


class SimpleClassifier(nn.Module):
    def __init__(self, in_dim, hid_dim, out_dim, dropout=0.0):
        super().__init__()
        self.q_net = FCNet([in_dim[0], hid_dim[0]], dropout)
        self.v_net = FCNet([in_dim[1], hid_dim[0]], dropout)
        self.main = nn.Sequential(
            nn.Linear(hid_dim[0], hid_dim[1]),
            nn.ReLU(),
            nn.Dropout(dropout, inplace=True),  # culprit
            nn.Linear(hid_dim[1], out_dim)
        )

    def forward(self, q_emb, v_emb):
        joint_repr = self.q_net(q_emb) * self.v_net(v_emb)
        return self.main(joint_repr)


def instance_bce_with_logits(logits, labels):
    return F.binary_cross_entropy_with_logits(logits, labels) * labels.size(1)


def main():
    torch.manual_seed(0)
    model = SimpleClassifier(in_dim=(12, 20), hid_dim=(16, 24), out_dim=10, dropout=0.5)
    optim = torch.optim.Adamax(model.parameters())
    q_emb, v_emb = torch.randn(4, 12), torch.randn(4, 20)
    answers = torch.zeros(4, 10)
    answers[torch.arange(4), torch.tensor([1, 3, 3, 7])] = 1.0
    model.train()
    logits = model(q_emb, v_emb)
    loss = instance_bce_with_logits(logits, answers)
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 0.25)
    optim.step()
    print(loss.item())


if __name__ == "__main__":
    main()
