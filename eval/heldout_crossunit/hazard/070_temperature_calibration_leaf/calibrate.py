def anneal_temperature(model, factor=0.5):
    t = model.temperature
    t *= factor  # culprit
    return t
