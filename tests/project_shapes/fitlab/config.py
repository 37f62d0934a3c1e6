"""Settings shared by the modules."""
import numpy as np

LEARNING_RATE = 0.05
NUM_STEPS = 12
BATCH_SIZE = 16
FEATURES = 3
# Per-class weights, kept as host (NumPy) data.
CLASS_WEIGHTS = np.array([1.0, 2.0, 0.5], dtype=np.float32)
