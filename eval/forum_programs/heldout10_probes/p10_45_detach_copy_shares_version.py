# probe: .detach() shares the version counter with its source; copy_ into a detached snapshot of softmax output makes the saved output stale
import torch
import torch.nn as nn

torch.manual_seed(0)


def smooth_in_place(snapshot, prior, alpha=0.1):
    snapshot.copy_((1 - alpha) * snapshot + alpha * prior)  # culprit


def main():
    policy = nn.Linear(4, 3)
    obs = torch.randn(6, 4)
    reward = torch.randn(6, 3)
    prior = torch.full((6, 3), 1.0 / 3)
    probs = torch.softmax(policy(obs), dim=-1)
    smooth_in_place(probs.detach(), prior)
    loss = -(probs * reward).sum()
    loss.backward()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
