# source: https://github.com/toshikwa/fqf-iqn-qrdqn.pytorch/issues/3 (FQFAgent.learn before the fix)
# FQF update: fraction net steps on fraction_loss + entropy_loss, then quantile_loss + the same entropy_loss is backpropagated.
import torch
import torch.nn as nn
import torch.nn.functional as F

N, EMB, ACTIONS, COS = 8, 16, 3, 16


class FractionProposalNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(EMB, N)

    def forward(self, state_embeddings):
        log_probs = F.log_softmax(self.net(state_embeddings), dim=1)
        probs = log_probs.exp()
        taus = F.pad(torch.cumsum(probs, dim=1), (1, 0))
        tau_hats = (taus[:, :-1] + taus[:, 1:]).detach() / 2.
        entropies = -(log_probs * probs).sum(dim=-1)
        return taus, tau_hats, entropies


class QuantileHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.cosine = nn.Linear(COS, EMB)
        self.out = nn.Linear(EMB, ACTIONS)

    def forward(self, taus, emb):
        i_pi = torch.arange(1, COS + 1).float() * torch.pi
        tau_emb = F.relu(self.cosine(torch.cos(taus[..., None] * i_pi)))
        return self.out(emb[:, None, :] * tau_emb)  # (B, n_taus, A)


def update_params(optim, loss, retain_graph=False):
    optim.zero_grad()
    loss.backward(retain_graph=retain_graph)
    optim.step()  # culprit


def quantile_huber(td, taus, kappa=1.0):
    huber = torch.where(td.abs() <= kappa, 0.5 * td.pow(2), kappa * (td.abs() - 0.5 * kappa))
    return (torch.abs(taus[..., None] - (td.detach() < 0).float()) * huber).sum(1).mean()


def main():
    torch.manual_seed(0)
    dqn_net, fraction_net, quantile_net = nn.Sequential(nn.Linear(4, EMB), nn.ReLU()), FractionProposalNetwork(), QuantileHead()
    fraction_optim = torch.optim.RMSprop(fraction_net.parameters(), lr=2.5e-4, alpha=0.95, eps=1e-5)
    quantile_optim = torch.optim.Adam(list(dqn_net.parameters()) + list(quantile_net.parameters()), lr=5e-4)
    ent_coef = 0.0
    states, actions = torch.randn(5, 4), torch.randint(0, ACTIONS, (5, 1))
    target_quantiles = torch.randn(5, 1, N)

    state_embeddings = dqn_net(states)
    taus, tau_hats, entropies = fraction_net(state_embeddings)
    sa_hats = quantile_net(tau_hats, state_embeddings).gather(2, actions[:, None, :].expand(-1, N, 1))
    with torch.no_grad():
        sa_quantiles = quantile_net(taus[:, 1:-1], state_embeddings).gather(2, actions[:, None, :].expand(-1, N - 1, 1))
    grad_of_taus = (2 * sa_quantiles - sa_hats[:, :-1].detach() - sa_hats[:, 1:].detach()).squeeze(-1)
    fraction_loss = (grad_of_taus * taus[:, 1:-1]).sum(dim=1).mean()
    quantile_loss = quantile_huber(target_quantiles - sa_hats, tau_hats)
    entropy_loss = -ent_coef * entropies.mean()

    update_params(fraction_optim, fraction_loss + entropy_loss, retain_graph=True)
    update_params(quantile_optim, quantile_loss + entropy_loss)
    print(fraction_loss.item(), quantile_loss.item())


if __name__ == "__main__":
    main()
