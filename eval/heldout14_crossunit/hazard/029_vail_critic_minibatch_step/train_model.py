import torch


def train_critic(critic, critic_optim, inputs, returns, batch_size):
    criterion = torch.nn.MSELoss()
    values = critic(inputs)
    n = inputs.size(0)
    for start in range(0, n, batch_size):
        idx = torch.arange(start, min(start + batch_size, n))
        loss = criterion(values[idx], returns[idx])
        critic_optim.zero_grad()
        loss.backward(retain_graph=True)
        critic_optim.step()  # culprit
