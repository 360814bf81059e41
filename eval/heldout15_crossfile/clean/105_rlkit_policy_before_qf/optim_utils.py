def apply_gradients(optimizer, loss):
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
