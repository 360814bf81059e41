# intended: AGI001
# DQN with invalid-action masking: after picking Q(s,a) for the loss, I mask invalid
# actions in the same Q tensor for the greedy action used for logging.
import torch
import torch.nn as nn
import torch.nn.functional as F


def main():
    torch.manual_seed(0)
    qnet = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 3))
    opt = torch.optim.Adam(qnet.parameters(), lr=1e-3)
    s = torch.randn(10, 4)
    a = torch.randint(0, 3, (10,))
    target = torch.randn(10)
    valid = torch.rand(10, 3) > 0.3
    for step in range(2):
        q = qnet(s)
        q_sa = q.gather(1, a.unsqueeze(1)).squeeze(1)
        q.masked_fill_(~valid, float("-inf"))  # culprit
        greedy = q.argmax(dim=1)
        loss = F.smooth_l1_loss(q_sa, target)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, loss.item(), greedy.tolist())


if __name__ == "__main__":
    main()
