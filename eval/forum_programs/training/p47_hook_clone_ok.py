# intended: safe
# Feature extraction with a forward hook that clones before editing; register_hook to log grad norms.
import torch
import torch.nn as nn

feats = {}
grad_norms = []

def save_hook(name):
    def hook(module, inp, out):
        f = out.detach().clone()
        f.clamp_(min=0)
        feats[name] = f
    return hook

def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(6, 12), nn.Sigmoid(), nn.Linear(12, 2))
    model[1].register_forward_hook(save_hook("sig"))
    x = torch.randn(5, 6, requires_grad=True)
    x.register_hook(lambda g: grad_norms.append(g.norm().item()))
    out = model(x)
    loss = out.pow(2).sum()
    loss.backward()
    print(feats["sig"].shape, grad_norms)

if __name__ == "__main__":
    main()
