import torch


class StateBuffer:
    def __init__(self, dim):
        self.h = torch.zeros(1, dim)

    def read(self):
        return self.h

    def write(self, h):
        self.h.copy_(h)
