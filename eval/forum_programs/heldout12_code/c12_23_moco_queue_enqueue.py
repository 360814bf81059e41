# source: MoCo v1/v2 (facebookresearch/moco builder.py) momentum encoder with a negative-key queue buffer
# MoCo contrastive model: momentum key encoder, InfoNCE logits against a queue buffer, enqueue inside forward.
import torch
import torch.nn as nn
import torch.nn.functional as F


def make_encoder(in_dim=12, hidden=32, dim=16):
    return nn.Sequential(nn.Linear(in_dim, hidden), nn.BatchNorm1d(hidden), nn.ReLU(inplace=True),
                         nn.Linear(hidden, dim))


class MoCo(nn.Module):
    def __init__(self, base_encoder, dim=16, K=32, m=0.99, T=0.2):
        super().__init__()
        self.K, self.m, self.T = K, m, T
        self.encoder_q = base_encoder(dim=dim)
        self.encoder_k = base_encoder(dim=dim)
        for param_q, param_k in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            param_k.data.copy_(param_q.data)
            param_k.requires_grad = False
        self.register_buffer("queue", F.normalize(torch.randn(dim, K), dim=0))
        self.register_buffer("queue_ptr", torch.zeros(1, dtype=torch.long))

    @torch.no_grad()
    def _momentum_update_key_encoder(self):
        for param_q, param_k in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            param_k.data = param_k.data * self.m + param_q.data * (1.0 - self.m)

    @torch.no_grad()
    def _dequeue_and_enqueue(self, keys):
        batch_size = keys.shape[0]
        ptr = int(self.queue_ptr)
        assert self.K % batch_size == 0
        self.queue[:, ptr:ptr + batch_size] = keys.T  # culprit
        self.queue_ptr[0] = (ptr + batch_size) % self.K

    def forward(self, im_q, im_k):
        q = F.normalize(self.encoder_q(im_q), dim=1)
        with torch.no_grad():
            self._momentum_update_key_encoder()
            k = F.normalize(self.encoder_k(im_k), dim=1)
        l_pos = torch.einsum("nc,nc->n", [q, k]).unsqueeze(-1)
        l_neg = torch.einsum("nc,ck->nk", [q, self.queue])
        logits = torch.cat([l_pos, l_neg], dim=1) / self.T
        labels = torch.zeros(logits.shape[0], dtype=torch.long)
        self._dequeue_and_enqueue(k)
        return logits, labels


def augment(x, gen):
    return x + 0.1 * torch.randn(x.shape, generator=gen) * (torch.rand(x.shape, generator=gen) > 0.2)


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    model = MoCo(make_encoder)
    opt = torch.optim.SGD(filter(lambda p: p.requires_grad, model.parameters()), lr=0.03,
                          momentum=0.9, weight_decay=1e-4)
    for step in range(2):
        images = torch.randn(8, 12)
        logits, labels = model(augment(images, gen), augment(images, gen))
        loss = F.cross_entropy(logits, labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
