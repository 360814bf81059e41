# Source: pytorch/pytorch#36608 (v1 = x.unbind(); v1[0].mul_(2) -> "Output 0 of UnbindBackward
# is a view and is being modified inplace").
# Unit kind: function -- a helper normalises the rows it receives from unbind().
import torch

torch.manual_seed(0)


def normalize_rows(rows):
    return [r.div_(r.norm()) for r in rows]  # culprit


root = torch.randn(3, 4, requires_grad=True)
x = root * 2
rows = normalize_rows(x.unbind(0))
torch.stack(rows).sum().backward()
print("done")
