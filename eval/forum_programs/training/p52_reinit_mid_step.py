# intended: AGI001
# "Dead neuron" revival: re-initialise the layer with nn.init after the forward pass.
import torch
import torch.nn as nn

def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(5, 8), nn.ReLU(), nn.Linear(8, 1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    x, y = torch.randn(16, 5), torch.randn(16, 1)
    for step in range(3):
        hidden = model[1](model[0](x))
        out = model[2](hidden)
        loss = nn.functional.mse_loss(out, y)
        if (hidden == 0).float().mean() > 0.1:
            nn.init.kaiming_uniform_(model[2].weight)  # culprit
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, loss.item())

if __name__ == "__main__":
    main()
