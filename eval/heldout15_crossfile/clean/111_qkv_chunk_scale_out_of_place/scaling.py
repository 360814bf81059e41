import math


def scale_query(q, dim):
    q = q * (1.0 / math.sqrt(dim))
    return q
