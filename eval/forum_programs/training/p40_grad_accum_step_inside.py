# intended: AGI001
# Gradient accumulation where the summed loss is backpropagated at the end,
# but optimizer.step() is called after every micro-batch.
import torch
import torch.nn as nn

def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(6, 16), nn.Tanh(), nn.Linear(16, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    X, Y = torch.randn(32, 6), torch.randn(32, 1)
    total = 0.0
    for x, y in zip(X.split(8), Y.split(8)):
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward(retain_graph=True)
        opt.step()  # culprit
        total = total + loss
    opt.zero_grad()
    total.backward()
    opt.step()
    print(total.item())

if __name__ == "__main__":
    main()
