# Source: https://github.com/KevinMusgrave/powerful-benchmarker/issues/78 (KevinMusgrave/powerful-benchmarker#78 "Bug due to ReLU(inplace=True) with TrainWithClassifier": the error comes from the classifier MLP in misc_models.py; removing inplace fixes it)
# Unit kind: cross-class
# The metric loss normalises the embeddings (saving them); the classifier MLP, built
# by the same MLP class, starts with an in-place ReLU applied to those embeddings.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class MLP(nn.Module):
    def __init__(self, layer_sizes, final_relu=False):
        super().__init__()
        layers = []
        num_layers = len(layer_sizes) - 1
        final_relu_layer = num_layers if final_relu else num_layers - 1
        for i in range(num_layers):
            if i < final_relu_layer:
                layers.append(nn.ReLU(inplace=True))  # culprit
            layers.append(nn.Linear(layer_sizes[i], layer_sizes[i + 1]))
        self.net = nn.Sequential(*layers)

    def forward(self, x):
        return self.net(x)


class ContrastiveLoss(nn.Module):
    def forward(self, embeddings, labels):
        e = F.normalize(embeddings, dim=1)
        sim = e @ e.t()
        same = (labels[:, None] == labels[None, :]).float()
        return ((1 - sim) * same + sim.clamp(min=0) * (1 - same)).mean()


class TrainWithClassifier:
    def __init__(self, trunk, embedder, classifier):
        self.trunk, self.embedder, self.classifier = trunk, embedder, classifier
        self.metric_loss = ContrastiveLoss()

    def compute_loss(self, x, labels):
        embeddings = self.embedder(self.trunk(x))
        loss = self.metric_loss(embeddings, labels)
        logits = self.classifier(embeddings)
        return loss + F.cross_entropy(logits, labels)


trainer = TrainWithClassifier(nn.Linear(6, 8), MLP([8, 5]), MLP([5, 3], final_relu=True))
loss = trainer.compute_loss(torch.randn(4, 6), torch.tensor([0, 1, 2, 1]))
loss.backward()
print("done")
