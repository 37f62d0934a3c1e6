"""A trajectory writer keeping frames in float16 on the host, and unwrapping across the box."""
import jax.numpy as jnp
import numpy as np


class TrajectoryWriter:
    def __init__(self, box, dtype=np.float16):
        self.box = box
        self.dtype = dtype
        self.frames = []

    def add(self, R):
        self.frames.append(np.asarray(R, dtype=self.dtype))

    def add_many(self, frames):
        """Frames stacked on the device, copied to the host at once."""
        self.frames.extend(np.asarray(jnp.stack(frames), dtype=self.dtype))

    def stacked(self):
        return jnp.asarray(np.stack(self.frames))


def unwrap(frames, box):
    """Removes the jumps across the periodic box between consecutive frames."""
    jumps = jnp.round(jnp.diff(frames, axis=0) / box)
    return frames - box * jnp.concatenate([jnp.zeros_like(frames[:1]), jnp.cumsum(jumps, axis=0)])
