"""Images for inspection: disparity maps and colours as 8-bit pixels."""
import numpy as np


def disparity(depth, acc):
    """Inverse depth, the way NeRF's figures show geometry."""
    # project shape (not a thread): NumPy's maximum of the traced depth, in a helper the jitted renderer calls
    return 1.0 / np.maximum(1e-10, depth / np.maximum(acc, 1e-10))  # reported: JNP201


def to_uint8(image):
    return (255 * np.clip(np.asarray(image), 0.0, 1.0)).astype(np.uint8)
