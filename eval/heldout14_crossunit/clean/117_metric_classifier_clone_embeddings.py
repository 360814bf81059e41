# Source: https://github.com/KevinMusgrave/powerful-benchmarker/issues/78 (KevinMusgrave/powerful-benchmarker#78: the in-place ReLU at the start of the classifier MLP)
# Unit kind: cross-class
# Look-alike of hazard/018: the classifier keeps its in-place ReLU, but the trainer
# hands it a clone of the embeddings, so the tensor the metric loss saved is untouched.
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
                layers.append(nn.ReLU(inplace=True))
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
        logits = self.classifier(embeddings.clone())
        return loss + F.cross_entropy(logits, labels)


trainer = TrainWithClassifier(nn.Linear(6, 8), MLP([8, 5]), MLP([5, 3], final_relu=True))
trainer.compute_loss(torch.randn(4, 6), torch.tensor([0, 1, 2, 1])).backward()
print("done")
