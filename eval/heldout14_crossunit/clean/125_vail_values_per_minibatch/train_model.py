import torch


def train_critic(critic, critic_optim, inputs, returns, batch_size):
    criterion = torch.nn.MSELoss()
    n = inputs.size(0)
    for start in range(0, n, batch_size):
        idx = torch.arange(start, min(start + batch_size, n))
        values = critic(inputs[idx])
        loss = criterion(values, returns[idx])
        critic_optim.zero_grad()
        loss.backward()
        critic_optim.step()
