import torch.nn.functional as F


def softmax_mse_loss(input_logits, target_logits):
    return F.mse_loss(F.softmax(input_logits, dim=1), F.softmax(target_logits, dim=1))
