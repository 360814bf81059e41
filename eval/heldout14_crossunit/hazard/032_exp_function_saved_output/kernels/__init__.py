from .exp_fn import exponential
from .gating import gated_

__all__ = ["exponential", "gated_"]
