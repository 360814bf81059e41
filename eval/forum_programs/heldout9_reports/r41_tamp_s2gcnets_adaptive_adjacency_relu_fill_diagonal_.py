# source: https://github.com/tamps2gcnets/TAMP_S2GCNets/issues/1 (TAMPGCN.py: initial_S = F.relu(mm(E, E^T)); initial_S.fill_diagonal_(...))
# Adaptive-graph spatio-temporal GCN layer: learned node-embedding adjacency gets its diagonal set in place after the ReLU.
import torch
import torch.nn as nn
import torch.nn.functional as F


class AdaptiveGraphConv(nn.Module):
    def __init__(self, dim_in, dim_out, link_len, embed_dim):
        super().__init__()
        self.link_len = link_len
        self.weights_pool = nn.Parameter(torch.randn(embed_dim, link_len, dim_in, dim_out) * 0.1)
        self.bias_pool = nn.Parameter(torch.zeros(embed_dim, dim_out))

    def forward(self, x, node_embeddings, stay_cost):
        node_num = node_embeddings.shape[0]
        initial_S = F.relu(torch.mm(node_embeddings, node_embeddings.transpose(0, 1)))  # (N, N)
        initial_S.fill_diagonal_(stay_cost)  # culprit
        S = F.softmax(initial_S, dim=1)
        S = S / torch.sum(S, dim=1)
        support_set = [torch.eye(node_num), S]
        for k in range(2, self.link_len):
            support_set.append(torch.mm(S, support_set[k - 1]))
        supports = torch.stack(support_set, dim=0)
        weights = torch.einsum('nd,dkio->nkio', node_embeddings, self.weights_pool)
        bias = torch.matmul(node_embeddings, self.bias_pool)
        x_s = torch.einsum("knm,bmc->bknc", supports, x).permute(0, 2, 1, 3)  # (B, N, link_len, dim_in)
        return torch.einsum('bnki,nkio->bno', x_s, weights) + bias


class TAMPGCNCell(nn.Module):
    def __init__(self, num_nodes, dim_in, hidden, embed_dim=4, link_len=3):
        super().__init__()
        self.node_embeddings = nn.Parameter(torch.randn(num_nodes, embed_dim))
        self.gate = AdaptiveGraphConv(dim_in + hidden, 2 * hidden, link_len, embed_dim)
        self.update = AdaptiveGraphConv(dim_in + hidden, hidden, link_len, embed_dim)
        self.hidden = hidden

    def forward(self, x, state, stay_cost=0.5):
        z_r = torch.sigmoid(self.gate(torch.cat([x, state], -1), self.node_embeddings, stay_cost))
        z, r = torch.split(z_r, self.hidden, dim=-1)
        hc = torch.tanh(self.update(torch.cat([x, z * state], -1), self.node_embeddings, stay_cost))
        return r * state + (1 - r) * hc


def main():
    torch.manual_seed(0)
    N, B, T, hidden = 6, 2, 4, 8
    cell, head = TAMPGCNCell(N, 1, hidden), nn.Linear(hidden, 1)
    opt = torch.optim.Adam(list(cell.parameters()) + list(head.parameters()), lr=3e-3)
    series, target = torch.randn(B, T, N, 1), torch.randn(B, N, 1)
    state = torch.zeros(B, N, hidden)
    for t in range(T):
        state = cell(series[:, t], state)
    loss = F.l1_loss(head(state), target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(loss.item())


if __name__ == "__main__":
    main()
