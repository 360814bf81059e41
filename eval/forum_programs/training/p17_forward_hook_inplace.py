# intended: AGI001
# Forward hook used to "temperature scale" the probabilities of a classifier.
import torch
import torch.nn as nn

class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 4)
        self.act = nn.Sigmoid()
    def forward(self, x):
        return self.act(self.fc(x))

def scale_hook(module, inputs, output):
    output.mul_(0.5)  # culprit

def main():
    torch.manual_seed(0)
    model = Classifier()
    model.act.register_forward_hook(scale_hook)
    x = torch.randn(16, 8)
    y = torch.rand(16, 4) * 0.5
    probs = model(x)
    loss = nn.functional.mse_loss(probs, y)
    loss.backward()
    print(loss.item())

if __name__ == "__main__":
    main()
