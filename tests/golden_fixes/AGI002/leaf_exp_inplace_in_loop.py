"""A training loop that turns a learnable log-variance into a variance in place: ``log_var.exp_()`` on a
leaf that requires grad raises at once."""
import torch


def run():
    torch.manual_seed(0)
    log_var = torch.zeros(3, requires_grad=True)
    x = torch.randn(10, 3)
    for _ in range(2):
        var = log_var
        with torch.no_grad():
            var.exp_()  # expect: AGI002
        nll = (x ** 2 / var + var.log()).mean()
        nll.backward()
    return nll


if __name__ == "__main__":
    print(run())
