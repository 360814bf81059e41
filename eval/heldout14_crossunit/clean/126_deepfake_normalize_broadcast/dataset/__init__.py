from .transform import Normalize, xception_default_data_transforms

__all__ = ["Normalize", "xception_default_data_transforms"]
