# source: https://github.com/toshikwa/fqf-iqn-qrdqn.pytorch/issues/3 (maintainer's fix: entropy loss only trains the fraction net)
# FQF learning loop: fraction net steps on fraction_loss + entropy_loss; the quantile update uses quantile_loss alone.
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
        return self.out(emb[:, None, :] * tau_emb)


def update_params(optim, loss, retain_graph=False):
    optim.zero_grad()
    loss.backward(retain_graph=retain_graph)
    optim.step()


def quantile_huber(td, taus, kappa=1.0):
    huber = torch.where(td.abs() <= kappa, 0.5 * td.pow(2), kappa * (td.abs() - 0.5 * kappa))
    return (torch.abs(taus[..., None] - (td.detach() < 0).float()) * huber).sum(1).mean()


def learn(nets, optims, batch, ent_coef=0.01):
    dqn_net, fraction_net, quantile_net = nets
    states, actions, target_quantiles = batch
    state_embeddings = dqn_net(states)
    taus, tau_hats, entropies = fraction_net(state_embeddings.detach())
    sa_hats = quantile_net(tau_hats, state_embeddings).gather(2, actions[:, None, :].expand(-1, N, 1))
    with torch.no_grad():
        sa_quantiles = quantile_net(taus[:, 1:-1], state_embeddings).gather(2, actions[:, None, :].expand(-1, N - 1, 1))
    grad_of_taus = (2 * sa_quantiles - sa_hats[:, :-1].detach() - sa_hats[:, 1:].detach()).squeeze(-1)
    fraction_loss = (grad_of_taus * taus[:, 1:-1]).sum(dim=1).mean()
    quantile_loss = quantile_huber(target_quantiles - sa_hats, tau_hats)
    entropy_loss = -ent_coef * entropies.mean()
    update_params(optims[0], fraction_loss + entropy_loss, retain_graph=True)
    update_params(optims[1], quantile_loss)
    return fraction_loss.item(), quantile_loss.item()


def main():
    torch.manual_seed(0)
    nets = (nn.Sequential(nn.Linear(4, EMB), nn.ReLU()), FractionProposalNetwork(), QuantileHead())
    optims = (torch.optim.RMSprop(nets[1].parameters(), lr=2.5e-4, alpha=0.95, eps=1e-5),
              torch.optim.Adam(list(nets[0].parameters()) + list(nets[2].parameters()), lr=5e-4))
    for step in range(3):
        batch = (torch.randn(5, 4), torch.randint(0, ACTIONS, (5, 1)), torch.randn(5, 1, N))
        print(step, learn(nets, optims, batch))


if __name__ == "__main__":
    main()
