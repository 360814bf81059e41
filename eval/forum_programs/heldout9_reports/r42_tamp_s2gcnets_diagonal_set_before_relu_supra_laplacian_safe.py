# source: https://github.com/tamps2gcnets/TAMP_S2GCNets/issues/1 (fix: set the stay-probability diagonal on the raw mm logits, before F.relu)
# Adaptive-graph GCN with a supra-Laplacian over bootstrapped time layers, filled block-wise into a zeros matrix.
import torch
import torch.nn as nn
import torch.nn.functional as F


class SupraGraphConv(nn.Module):
    def __init__(self, dim_in, dim_out, embed_dim, layers=3, jump_cost=0.3):
        super().__init__()
        self.layers, self.jump_cost = layers, jump_cost
        self.weights_pool = nn.Parameter(torch.randn(embed_dim, dim_in, dim_out) * 0.1)
        self.bias_pool = nn.Parameter(torch.zeros(embed_dim, dim_out))

    def laplacian(self, node_embeddings, stay_cost):
        logits = torch.mm(node_embeddings, node_embeddings.transpose(0, 1))
        logits.fill_diagonal_(stay_cost)
        S = F.softmax(F.relu(logits), dim=1)
        return S / torch.sum(S, dim=1)

    def forward(self, x_window, node_embeddings, stay_cost=0.5):
        N, L = node_embeddings.shape[0], self.layers
        S = self.laplacian(node_embeddings, stay_cost)
        supra_laplacian = torch.zeros(N * L, N * L)
        inter_diagonal_matrix = torch.eye(N) * self.jump_cost
        for i in range(L):
            for j in range(L):
                if i == j:
                    supra_laplacian[N * i:N * (i + 1), N * i:N * (i + 1)] = S
                elif j > i:
                    supra_laplacian[N * i:N * (i + 1), N * j:N * (j + 1)] = inter_diagonal_matrix
        idx = torch.sort(torch.randperm(x_window.size(1))[:L]).values
        xw = x_window[:, idx].reshape(x_window.size(0), N * L, -1)
        x_w_s = torch.einsum('bmi,mn->bni', xw, supra_laplacian).view(x_window.size(0), L, N, -1)
        weights = torch.einsum('nd,dio->nio', node_embeddings, self.weights_pool)
        out = torch.einsum('bfni,nio->bfno', x_w_s, weights).mean(dim=1)
        return out + torch.matmul(node_embeddings, self.bias_pool)


def main():
    torch.manual_seed(0)
    N, B, T = 6, 2, 5
    node_embeddings = nn.Parameter(torch.randn(N, 4))
    conv, head = SupraGraphConv(1, 8, 4), nn.Linear(8, 1)
    opt = torch.optim.Adam([node_embeddings] + list(conv.parameters()) + list(head.parameters()), lr=3e-3)
    x_window, target = torch.randn(B, T, N, 1), torch.randn(B, N, 1)
    for step in range(2):
        loss = F.l1_loss(head(F.relu(conv(x_window, node_embeddings))), target)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, loss.item())


if __name__ == "__main__":
    main()
