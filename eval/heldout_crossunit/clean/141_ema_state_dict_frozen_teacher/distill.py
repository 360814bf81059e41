import torch.nn.functional as F


def consistency_loss(student, teacher, x):
    return F.kl_div(F.log_softmax(student(x), -1), F.softmax(teacher(x), -1), reduction="batchmean")
