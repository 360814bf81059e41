# intended: AGI001
# like: forum thread on Deep Mutual Learning, added retain_graph=True after "backward a second time", then got the inplace error
import torch
import torch.nn as nn
import torch.nn.functional as F


def make_net(hidden):
    return nn.Sequential(nn.Linear(10, hidden), nn.ReLU(), nn.Linear(hidden, 4))


def kl_loss(logits_a, logits_b):
    return F.kl_div(F.log_softmax(logits_a, dim=1), F.softmax(logits_b, dim=1), reduction="batchmean")


def train(net1, net2, opt1, opt2, loader):
    net1.train()
    net2.train()
    for x, y in loader:
        out1 = net1(x)
        out2 = net2(x)

        loss1 = F.cross_entropy(out1, y) + kl_loss(out1, out2)
        opt1.zero_grad()
        loss1.backward(retain_graph=True)
        opt1.step()  # culprit

        loss2 = F.cross_entropy(out2, y) + kl_loss(out2, out1)
        opt2.zero_grad()
        loss2.backward()
        opt2.step()
        print(f"loss1 {loss1.item():.4f} loss2 {loss2.item():.4f}")


def main():
    torch.manual_seed(0)
    net1, net2 = make_net(16), make_net(24)
    opt1 = torch.optim.SGD(net1.parameters(), lr=0.1, momentum=0.9)
    opt2 = torch.optim.SGD(net2.parameters(), lr=0.1, momentum=0.9)
    data, labels = torch.randn(16, 10), torch.randint(0, 4, (16,))
    loader = list(zip(data.split(8), labels.split(8)))
    train(net1, net2, opt1, opt2, loader)


if __name__ == "__main__":
    main()
