# source: https://github.com/KevinMusgrave/powerful-benchmarker/issues/78 (MLP in architectures/misc_models.py starts with ReLU(inplace=True))
# Embedder + classifier trainer: the metric (contrastive) loss is built first, then the classifier MLP relu_()s the embeddings.
import torch
import torch.nn as nn
import torch.nn.functional as F


class MLP(nn.Module):
    # layer_sizes[0] is the dimension of the input, layer_sizes[-1] of the output
    def __init__(self, layer_sizes, final_relu=False):
        super().__init__()
        layer_list = []
        num_layers = len(layer_sizes) - 1
        final_relu_layer = num_layers if final_relu else num_layers - 1
        for i in range(num_layers):
            if i < final_relu_layer:
                layer_list.append(nn.ReLU(inplace=True))  # culprit
            layer_list.append(nn.Linear(layer_sizes[i], layer_sizes[i + 1]))
        self.net = nn.Sequential(*layer_list)

    def forward(self, x):
        return self.net(x)


def contrastive_loss(embeddings, labels, pos_margin=0.0, neg_margin=1.0):
    emb = F.normalize(embeddings, p=2, dim=1)
    dist = torch.cdist(emb, emb)
    same = labels[:, None] == labels[None, :]
    eye = torch.eye(len(labels), dtype=torch.bool)
    pos = F.relu(dist[same & ~eye] - pos_margin)
    neg = F.relu(neg_margin - dist[~same])
    return pos.mean() + neg.mean()


def main():
    torch.manual_seed(0)
    trunk = nn.Sequential(nn.Linear(20, 32), nn.ReLU())
    embedder = MLP([32, 16])
    classifier = MLP([16, 16, 4])
    params = list(trunk.parameters()) + list(embedder.parameters()) + list(classifier.parameters())
    opt = torch.optim.Adam(params, lr=1e-3)
    data, labels = torch.randn(8, 20), torch.tensor([0, 0, 1, 1, 2, 2, 3, 3])
    losses = {}
    embeddings = embedder(trunk(data))
    losses["metric_loss"] = contrastive_loss(embeddings, labels)
    logits = classifier(embeddings)
    losses["classifier_loss"] = F.cross_entropy(logits, labels)
    total = sum(losses.values())
    opt.zero_grad()
    total.backward()
    opt.step()
    print({k: v.item() for k, v in losses.items()})


if __name__ == "__main__":
    main()
