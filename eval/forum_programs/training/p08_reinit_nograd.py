# intended: safe
# Custom weight init (DCGAN-style) applied via model.apply, plus re-init of head.
import torch
import torch.nn as nn

def weights_init(m):
    if isinstance(m, nn.Linear):
        nn.init.normal_(m.weight, 0.0, 0.02)
        nn.init.zeros_(m.bias)
    elif isinstance(m, nn.BatchNorm1d):
        with torch.no_grad():
            m.weight.fill_(1.0)
            m.bias.zero_()

def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(10, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Linear(32, 3))
    model.apply(weights_init)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x, y = torch.randn(32, 10), torch.randint(0, 3, (32,))
    for epoch in range(6):
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if epoch == 3:
            with torch.no_grad():
                model[3].weight.normal_(0.0, 0.01)
                model[3].bias.zero_()
        print(epoch, loss.item())

if __name__ == "__main__":
    main()
