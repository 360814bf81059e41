# source: functional MAML inner loop (second-order) on a tiny two-layer regressor
# description: inner gradients are taken w.r.t. the meta weights; the update is applied in place on fresh clones nothing saved
import torch
import torch.nn.functional as F

torch.manual_seed(0)
w1 = (0.5 * torch.randn(1, 16)).requires_grad_(True)
w2 = (0.5 * torch.randn(16, 1)).requires_grad_(True)
meta_opt = torch.optim.Adam([w1, w2], lr=1e-3)
inner_lr = 0.1


def net(x, a, b):
    return torch.tanh(x @ a) @ b


for it in range(2):
    xs, xq = torch.randn(5, 1), torch.randn(5, 1)
    ys, yq = torch.sin(xs), torch.sin(xq)
    inner_loss = F.mse_loss(net(xs, w1, w2), ys)
    g1, g2 = torch.autograd.grad(inner_loss, (w1, w2), create_graph=True)
    fast_w1, fast_w2 = w1.clone(), w2.clone()
    fast_w1.sub_(inner_lr * g1)
    fast_w2.sub_(inner_lr * g2)
    outer_loss = F.mse_loss(net(xq, fast_w1, fast_w2), yq)
    meta_opt.zero_grad()
    outer_loss.backward()
    meta_opt.step()
    print(it, outer_loss.item())
