import torch


def lambda_target(rewards, values, gamma, lambda_):
    horizon = rewards.shape[0]
    targets = []
    nxt = values[-1]
    for t in reversed(range(horizon)):
        nxt = rewards[t] + gamma * ((1 - lambda_) * values[t] + lambda_ * nxt)
        targets.append(nxt)
    return torch.stack(targets[::-1])
