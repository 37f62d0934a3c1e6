"""Host-side data and augmentation."""
from . import pipeline

__all__ = ["pipeline"]
