"""The report inplace-lint grew from: three small programs, one of which fails at backward.

Lint it:  inplace-lint examples/seed.py
"""
import torch


def fn(a):
    b = a ** 2
    for _ in range(5):
        b *= b  # the multiplication saves b for backward, then overwrites it
    return b


def fn_rebinding(a):
    b = a ** 2
    for _ in range(2):
        b = b * b  # a new tensor each time: nothing saved is modified
    return b


def fn_other_tensor(a):
    b = a ** 2
    c = a ** 2
    for _ in range(2):
        c *= b  # saves b (untouched afterwards); c's old value is kept privately
    return c


if __name__ == "__main__":
    a = torch.tensor(5.0, requires_grad=True)
    fn_rebinding(a).backward()
    print(a.grad)  # tensor(625000.)
    fn_other_tensor(a).backward()
    print(a.grad)  # tensor(643750.): .grad accumulates across the two backward calls
    fn(a).backward()  # RuntimeError: ... modified by an inplace operation ... is at version 5; expected version 4
