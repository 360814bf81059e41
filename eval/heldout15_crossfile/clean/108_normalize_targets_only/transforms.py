class Normalize:
    def __init__(self, mean, std):
        self.mean, self.std = mean, std

    def __call__(self, x):
        x.sub_(self.mean)
        x.div_(self.std)
        return x
