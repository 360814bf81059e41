# intended: safe
# Knowledge distillation with noisy soft targets: a helper receives softmax probabilities
# (saved by softmax), clones them, then perturbs and renormalises the clone in place.
import torch
import torch.nn as nn
import torch.nn.functional as F


def smooth_targets(p, eps=0.05):
    p = p.clone()
    p += eps / p.shape[-1]
    p.div_(p.sum(-1, keepdim=True))
    return p


def main():
    torch.manual_seed(0)
    teacher = nn.Sequential(nn.Linear(6, 20), nn.ReLU(), nn.Linear(20, 5))
    student = nn.Sequential(nn.Linear(6, 8), nn.ReLU(), nn.Linear(8, 5))
    opt = torch.optim.Adam(list(student.parameters()) + list(teacher.parameters()), lr=1e-3)
    x = torch.randn(12, 6)
    y = torch.randint(0, 5, (12,))
    t_probs = F.softmax(teacher(x) / 2.0, dim=-1)
    targets = smooth_targets(t_probs)
    s_logp = F.log_softmax(student(x) / 2.0, dim=-1)
    kd = F.kl_div(s_logp, targets, reduction="batchmean")
    teacher_ce = F.nll_loss(t_probs.log(), y)
    loss = kd + teacher_ce
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(loss.item(), teacher[0].weight.grad.norm().item())


if __name__ == "__main__":
    main()
