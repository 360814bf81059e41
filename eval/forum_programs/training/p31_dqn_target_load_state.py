# intended: AGI001
# DQN: target computed without no_grad, then target net synced before backward.
import torch
import torch.nn as nn

def make_q():
    return nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 2))

def main():
    torch.manual_seed(0)
    q_net, target_net = make_q(), make_q()
    target_net.load_state_dict(q_net.state_dict())
    opt = torch.optim.Adam(q_net.parameters(), lr=1e-3)
    s, a = torch.randn(32, 4), torch.randint(0, 2, (32,))
    r, s2, done = torch.randn(32), torch.randn(32, 4), torch.zeros(32)
    for step in range(1, 4):
        q = q_net(s).gather(1, a.unsqueeze(1)).squeeze(1)
        target = r + 0.99 * (1 - done) * target_net(s2).max(1).values
        loss = nn.functional.smooth_l1_loss(q, target)
        if step % 2 == 0:
            target_net.load_state_dict(q_net.state_dict())  # culprit
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, loss.item())

if __name__ == "__main__":
    main()
