# source: https://github.com/KevinMusgrave/powerful-benchmarker/issues/78 (TrainWithClassifier order: logits, then metric loss)
# Embedder + classifier trainer in the library's order: the classifier MLP's leading ReLU(inplace=True) runs before any loss.
import torch
import torch.nn as nn
import torch.nn.functional as F


class MLP(nn.Module):
    def __init__(self, layer_sizes, final_relu=False):
        super().__init__()
        layer_list = []
        num_layers = len(layer_sizes) - 1
        final_relu_layer = num_layers if final_relu else num_layers - 1
        for i in range(num_layers):
            if i < final_relu_layer:
                layer_list.append(nn.ReLU(inplace=True))
            layer_list.append(nn.Linear(layer_sizes[i], layer_sizes[i + 1]))
        self.net = nn.Sequential(*layer_list)

    def forward(self, x):
        return self.net(x)


class TrainWithClassifier:
    def __init__(self, models, optimizer):
        self.models, self.optimizer = models, optimizer
        self.losses = {}

    def compute_embeddings(self, data):
        return self.models["embedder"](self.models["trunk"](data))

    def metric_loss(self, embeddings, labels):
        emb = F.normalize(embeddings, p=2, dim=1)
        sim = emb @ emb.t() / 0.1
        sim = sim - torch.eye(len(labels)) * 1e4
        pos = (labels[:, None] == labels[None, :]).float() - torch.eye(len(labels))
        log_prob = sim - torch.logsumexp(sim, dim=1, keepdim=True)
        return -(log_prob * pos).sum(1).div(pos.sum(1)).mean()

    def calculate_loss(self, data, labels):
        embeddings = self.compute_embeddings(data)
        logits = self.models["classifier"](embeddings)
        self.losses["metric_loss"] = self.metric_loss(embeddings, labels)
        self.losses["classifier_loss"] = F.cross_entropy(logits, labels)

    def step(self, data, labels):
        self.optimizer.zero_grad()
        self.calculate_loss(data, labels)
        sum(self.losses.values()).backward()
        self.optimizer.step()


def main():
    torch.manual_seed(0)
    models = {"trunk": nn.Sequential(nn.Linear(20, 32), nn.ReLU()), "embedder": MLP([32, 16]),
              "classifier": MLP([16, 16, 4])}
    params = [p for m in models.values() for p in m.parameters()]
    trainer = TrainWithClassifier(models, torch.optim.Adam(params, lr=1e-3))
    data, labels = torch.randn(8, 20), torch.tensor([0, 0, 1, 1, 2, 2, 3, 3])
    for it in range(2):
        trainer.step(data, labels)
        print(it, {k: round(v.item(), 4) for k, v in trainer.losses.items()})


if __name__ == "__main__":
    main()
