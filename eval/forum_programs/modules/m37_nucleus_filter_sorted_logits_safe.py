# intended: safe
# nucleus (top-p) filtering with grad: sort, softmax of the sorted logits, write -inf into the sorted logits
import torch
import torch.nn as nn


def nucleus_filter(logits, p=0.8):
    sorted_logits, order = logits.sort(dim=-1, descending=True)
    cum = sorted_logits.softmax(-1).cumsum(-1)
    remove = cum > p
    remove[..., 1:] = remove[..., :-1].clone()
    remove[..., 0] = False
    sorted_logits[remove] = float("-inf")
    return torch.empty_like(sorted_logits).scatter(-1, order, sorted_logits)


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 6))

    def forward(self, obs):
        return nucleus_filter(self.net(obs)).softmax(-1)


def main():
    torch.manual_seed(0)
    pi = Policy()
    obs = torch.randn(3, 4)
    probs = pi(obs)
    loss = -(probs * torch.randn(3, 6)).sum()
    loss.backward()
    print(probs.detach().gt(0).sum(-1).tolist())


if __name__ == "__main__":
    main()
