# intended: AGI003
# Per-timestep discounting of rewards predicted by a model, using unbind.
import torch
import torch.nn as nn

def main():
    torch.manual_seed(0)
    reward_model = nn.Linear(3, 1)
    traj = torch.randn(5, 3)
    preds = reward_model(traj).squeeze(-1)
    steps = preds.unbind(0)
    gamma = 0.9
    for t, r in enumerate(steps):
        r.mul_(gamma ** t)  # culprit
    ret = torch.stack(steps).sum()
    ret.backward()
    print(ret.item())

if __name__ == "__main__":
    main()
