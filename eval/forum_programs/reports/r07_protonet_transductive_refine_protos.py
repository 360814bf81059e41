# intended: AGI001
# like: forum thread on a transductive ProtoNet, prototypes refined in place after torch.cdist already used them
import torch
import torch.nn as nn
import torch.nn.functional as F


def conv_block(c_in, c_out):
    return nn.Sequential(nn.Conv2d(c_in, c_out, 3, padding=1), nn.BatchNorm2d(c_out), nn.ReLU(), nn.MaxPool2d(2))


class ProtoNet(nn.Module):
    def __init__(self, hid=8):
        super().__init__()
        self.encoder = nn.Sequential(conv_block(1, hid), conv_block(hid, hid))

    def forward(self, x):
        return self.encoder(x).flatten(1)


def compute_prototypes(z_support, y_support, n_way):
    return torch.stack([z_support[y_support == c].mean(0) for c in range(n_way)])


def episode_logits(model, support, y_support, query, n_way, refine_steps=1):
    z_s = model(support)
    z_q = model(query)
    protos = compute_prototypes(z_s, y_support, n_way)
    all_logits = []
    for _ in range(refine_steps + 1):
        dists = torch.cdist(z_q, protos)
        all_logits.append(-dists)
        soft = F.softmax(-dists, dim=1)
        new_protos = soft.t() @ z_q / soft.sum(0)[:, None]
        protos.mul_(0.5).add_(0.5 * new_protos)  # culprit
    return all_logits


def main():
    torch.manual_seed(0)
    n_way, k_shot, n_query = 3, 2, 4
    model = ProtoNet()
    optim = torch.optim.Adam(model.parameters(), lr=1e-3)
    for episode in range(2):
        support = torch.randn(n_way * k_shot, 1, 8, 8)
        y_support = torch.arange(n_way).repeat_interleave(k_shot)
        query = torch.randn(n_way * n_query, 1, 8, 8)
        y_query = torch.arange(n_way).repeat_interleave(n_query)
        logits = episode_logits(model, support, y_support, query, n_way)
        loss = sum(F.cross_entropy(l, y_query) for l in logits) / len(logits)
        optim.zero_grad()
        loss.backward()
        optim.step()
        acc = (logits[-1].argmax(1) == y_query).float().mean()
        print(episode, loss.item(), acc.item())


if __name__ == "__main__":
    main()
