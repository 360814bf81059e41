# Source: https://github.com/BierOne/bottom-up-attention-vqa/issues/6 (BierOne/bottom-up-attention-vqa#6: "modified by an inplace operation: [torch.cuda.FloatTensor [512, 2048]], which is output 0 of ReluBackward0"; model/classifier.py's nn.Dropout(dropout, inplace=True) should be inplace=False)
# Unit kind: cross-file
# fc.py's FCNet ends in ReLU (which saves its result); classifier.py's SimpleClassifier
# follows it with an in-place Dropout, which rewrites that result in training mode.
import torch
import torch.nn.functional as F

from classifier import SimpleClassifier

torch.manual_seed(0)

clf = SimpleClassifier(6, 8, 3, dropout=0.5)
clf.train()
joint = torch.randn(4, 6)
logits = clf(joint)
F.binary_cross_entropy_with_logits(logits, torch.rand(4, 3)).backward()
print("done")
