from .conv_module import ConvModule

__all__ = ["ConvModule"]
