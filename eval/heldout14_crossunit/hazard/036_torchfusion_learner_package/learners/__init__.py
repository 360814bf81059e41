from .base import BaseGanLearner
from .standard import StandardGanLearner

__all__ = ["BaseGanLearner", "StandardGanLearner"]
