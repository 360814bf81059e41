# probe: gather saves its index tensor; incrementing the action index in place before backward makes it stale
import torch
import torch.nn as nn

torch.manual_seed(0)


def select_actions(q_values, actions):
    return q_values.gather(1, actions)


def main():
    q_net = nn.Linear(4, 3)
    obs = torch.randn(6, 4)
    actions = torch.randint(0, 2, (6, 1))
    targets = torch.randn(6, 1)
    chosen = select_actions(q_net(obs), actions)
    actions.add_(1)  # culprit
    loss = (chosen - targets).pow(2).mean()
    loss.backward()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
