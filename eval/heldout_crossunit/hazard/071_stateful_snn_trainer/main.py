# Source: norse/norse#163 ("But I want state to be passed between multiple inputs": passing the
# state on to the next batch raised "... output 0 of TBackward, is at version 1; expected version 0").
# Unit kind: file -- layers.py's recurrent Linear saves its weight in the graph carried by the
# state; trainer.py steps the optimizer and backpropagates through that graph again next batch.
import torch
import torch.nn as nn

from layers import LeakyCell
from trainer import StatefulTrainer

torch.manual_seed(0)
tr = StatefulTrainer(LeakyCell(3, 5), nn.Linear(5, 1))
for _ in range(3):
    tr.step(torch.randn(2, 3), torch.randn(2, 1))
print("done")
