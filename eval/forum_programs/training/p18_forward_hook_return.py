# intended: safe
# Forward hook that returns a modified output, and a tensor hook clamping grads in place.
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
    return output * 0.5

def clip_grad_hook(grad):
    grad.clamp_(-0.1, 0.1)
    return grad

def main():
    torch.manual_seed(0)
    model = Classifier()
    model.act.register_forward_hook(scale_hook)
    for p in model.parameters():
        p.register_hook(clip_grad_hook)
    x = torch.randn(16, 8)
    y = torch.rand(16, 4) * 0.5
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    print(loss.item(), model.fc.weight.grad.abs().max().item())

if __name__ == "__main__":
    main()
