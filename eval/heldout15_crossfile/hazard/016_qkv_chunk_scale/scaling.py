import math


def scale_query(q, dim):
    q *= 1.0 / math.sqrt(dim)  # culprit
    return q
