# intended: safe
# like: VQ-VAE-EMA quantizer that refreshes the codebook in place (under no_grad) inside forward, after the lookup used it
import torch
import torch.nn as nn
import torch.nn.functional as F


class VectorQuantizerEMA(nn.Module):
    def __init__(self, num_embeddings=8, embedding_dim=4, commitment_cost=0.25, decay=0.99, epsilon=1e-5):
        super().__init__()
        self._embedding_dim = embedding_dim
        self._num_embeddings = num_embeddings
        self._embedding = nn.Embedding(num_embeddings, embedding_dim)
        self._embedding.weight.data.normal_()
        self._commitment_cost = commitment_cost
        self.register_buffer("_ema_cluster_size", torch.zeros(num_embeddings))
        self.register_buffer("_ema_w", self._embedding.weight.data.clone())
        self._decay, self._epsilon = decay, epsilon

    def forward(self, inputs):
        inputs = inputs.permute(0, 2, 3, 1).contiguous()
        input_shape = inputs.shape
        flat_input = inputs.view(-1, self._embedding_dim)
        distances = (torch.sum(flat_input ** 2, dim=1, keepdim=True)
                     + torch.sum(self._embedding.weight ** 2, dim=1)
                     - 2 * torch.matmul(flat_input, self._embedding.weight.t()))
        encoding_indices = torch.argmin(distances, dim=1).unsqueeze(1)
        encodings = torch.zeros(encoding_indices.shape[0], self._num_embeddings)
        encodings.scatter_(1, encoding_indices, 1)
        quantized = torch.matmul(encodings, self._embedding.weight).view(input_shape)

        if self.training:
            with torch.no_grad():
                self._ema_cluster_size.mul_(self._decay).add_(torch.sum(encodings, 0), alpha=1 - self._decay)
                n = torch.sum(self._ema_cluster_size)
                cluster_size = (self._ema_cluster_size + self._epsilon) / (n + self._num_embeddings * self._epsilon) * n
                dw = torch.matmul(encodings.t(), flat_input)
                self._ema_w.mul_(self._decay).add_(dw, alpha=1 - self._decay)
                self._embedding.weight.copy_(self._ema_w / cluster_size.unsqueeze(1))

        e_latent_loss = F.mse_loss(quantized.detach(), inputs)
        loss = self._commitment_cost * e_latent_loss
        quantized = inputs + (quantized - inputs).detach()
        return loss, quantized.permute(0, 3, 1, 2).contiguous()


class VQVAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(1, 8, 4, 2, 1), nn.ReLU(), nn.Conv2d(8, 4, 3, 1, 1))
        self.vq = VectorQuantizerEMA()
        self.decoder = nn.Sequential(nn.Conv2d(4, 8, 3, 1, 1), nn.ReLU(), nn.ConvTranspose2d(8, 1, 4, 2, 1))

    def forward(self, x):
        vq_loss, quantized = self.vq(self.encoder(x))
        return vq_loss, self.decoder(quantized)


def main():
    torch.manual_seed(0)
    model = VQVAE()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, amsgrad=False)
    data = torch.rand(8, 1, 8, 8)
    for i in range(3):
        vq_loss, data_recon = model(data)
        recon_error = F.mse_loss(data_recon, data)
        loss = recon_error + vq_loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(i, recon_error.item(), vq_loss.item())


if __name__ == "__main__":
    main()
