def update(optimizer, loss, retain_graph=False):
    """zero_grad -> backward -> step, as recommended in xaggi/OGNet#8."""
    optimizer.zero_grad()
    loss.backward(retain_graph=retain_graph)
    optimizer.step()
