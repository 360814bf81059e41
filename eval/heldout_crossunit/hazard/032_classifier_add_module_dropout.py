# Source: pytorch/vision#807 ("Why in-place operation for ReLU is used in models?": the in-place
# ReLUs in AlexNet-style classifiers are safe; the reply notes which orders are not). Here the
# classifier is built with add_module in a loop and each ReLU is followed by an in-place Dropout.
# Unit kind: class -- nn.ReLU (saves its output) and nn.Dropout(inplace=True) are sibling modules.
import torch
import torch.nn as nn

torch.manual_seed(0)


def make_classifier(widths, p=0.5):
    seq = nn.Sequential()
    for i in range(len(widths) - 1):
        seq.add_module(f"fc{i}", nn.Linear(widths[i], widths[i + 1]))
        seq.add_module(f"relu{i}", nn.ReLU(inplace=True))
        seq.add_module(f"drop{i}", nn.Dropout(p, inplace=True))  # culprit
    return seq


clf = make_classifier([12, 16, 8])
clf.train()
clf(torch.randn(4, 12)).sum().backward()
print("done")
