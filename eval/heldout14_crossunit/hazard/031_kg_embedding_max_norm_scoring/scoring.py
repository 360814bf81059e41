def score_all(model):
    """Scores of every entity against every relation: [num_entities, num_relations]."""
    return model.entities.weight @ model.relations.t()


def score_batch(model, idx):
    """Scores of the batch's entities: [batch, num_relations]."""
    return model.entities(idx) @ model.relations.t()
