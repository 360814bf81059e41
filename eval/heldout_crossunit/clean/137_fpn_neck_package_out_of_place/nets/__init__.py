from .necks import FPN

__all__ = ["FPN"]
