from .boxes import Boxes

__all__ = ["Boxes"]
