from dataclasses import dataclass, field

import torch


@dataclass
class RunningStats:
    num_classes: int
    totals: dict = field(default_factory=dict)
    history: list = field(default_factory=list)
    class_counts: torch.Tensor = None

    def __post_init__(self):
        self.class_counts = torch.zeros(self.num_classes, dtype=torch.long)

    def update(self, labels, **values):
        for name, value in values.items():
            self.totals[name] = self.totals.get(name, 0.0)
            self.totals[name] += float(value)
        self.history += [dict(values)]
        self.class_counts += torch.bincount(labels, minlength=self.num_classes)

    def class_weights(self):
        return 1.0 / self.class_counts.clamp(min=1).float()
