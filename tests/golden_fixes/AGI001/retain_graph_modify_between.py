"""With ``retain_graph=True`` the first backward succeeds; changing the saved ``exp`` result before the
second backward through the same graph makes that one raise."""
import torch


def run():
    torch.manual_seed(0)
    x = torch.randn(3, requires_grad=True)
    y = torch.exp(x)
    loss = y.sum()
    loss.backward(retain_graph=True)
    y = y.add(1.0)  # expect: AGI001
    loss.backward()
    return y


if __name__ == "__main__":
    print(run())
