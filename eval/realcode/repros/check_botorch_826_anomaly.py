import torch
from penicillin_variant import load_penicillin, run
torch.autograd.set_detect_anomaly(True)
run(load_penicillin("V, X, S = V.clone(), X.clone(), S.clone()"))
