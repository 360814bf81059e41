# Source: pytorch/vision#807 (in-place ReLUs in AlexNet's classifier are safe: there Dropout comes
# before each Linear and the ReLU works on a Linear output).
# Clean look-alike of hazard/032: add_module loop in AlexNet order.
# Unit kind: class.
import torch
import torch.nn as nn

torch.manual_seed(0)


def make_classifier(widths, p=0.5):
    seq = nn.Sequential()
    for i in range(len(widths) - 1):
        seq.add_module(f"drop{i}", nn.Dropout(p))
        seq.add_module(f"fc{i}", nn.Linear(widths[i], widths[i + 1]))
        seq.add_module(f"relu{i}", nn.ReLU(inplace=True))
    return seq


clf = make_classifier([12, 16, 8])
clf.train()
clf(torch.randn(4, 12)).sum().backward()
print("done")
