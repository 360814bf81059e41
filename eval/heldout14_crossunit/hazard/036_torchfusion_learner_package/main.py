# Source: https://github.com/johnolafenwa/TorchFusion/issues/5 (johnolafenwa/TorchFusion#5 "gan in 5 minutes runs into an error": "modified by an inplace operation" from the learner hierarchy's __train_loop__ -> __disc_train_func__ -> loss.backward() in torchfusion/gan/learners/learners.py)
# Unit kind: cross-file
# In the shape of TorchFusion's learner hierarchy: learners/base.py's train loop builds
# the generator loss through D (saving D's weights), then calls the discriminator hook of
# the subclass in learners/standard.py (a relative import), which steps D's optimizer
# before the generator's backward.
import torch
import torch.nn as nn

from learners import StandardGanLearner

torch.manual_seed(0)

gen = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 6))
disc = nn.Sequential(nn.Linear(6, 8), nn.LeakyReLU(0.2), nn.Linear(8, 1))
learner = StandardGanLearner(gen, disc, latent_size=4)
learner.train([torch.randn(3, 6)], torch.optim.Adam(gen.parameters(), lr=2e-4), torch.optim.Adam(disc.parameters(), lr=2e-4))
print("done")
