"""What the probes ask of a value they meet: whether it is a device array (no tracer), whether
one is still being computed, and which device arrays a frame's locals hold. Imports jax."""
import dataclasses

import jax


def is_device_array(value):
    return isinstance(value, jax.Array) and not isinstance(value, jax.core.Tracer)


def computing(array):
    """Whether a device array is still being computed (a typed PRNG key array asks its key data)."""
    key = jax.dtypes.issubdtype(array.dtype, jax.dtypes.prng_key)
    return not (jax.random.key_data(array) if key else array).is_ready()


def frame_arrays(f_locals):
    """{local: device array} of a frame's locals: each that is one, else the last leaf of a list,
    tuple, dict, pytree or dataclass it holds, where that is one (the newest of a train state)."""
    arrays = {local: value for local, value in f_locals.items() if is_device_array(value)}
    arrays.update((local, leaf) for local, value in f_locals.items() if local not in arrays
                  for leaf in _held_leaves(value)[-1:] if is_device_array(leaf))
    return arrays


def dispatched_arrays(code, dispatched):
    """{line: device array} of what the jitted calls on the lines of ``code`` last returned, ``dispatched``
    being place -> result: the work a function queued, whether or not a local holds it."""
    path, lines = code.co_filename, {line for _, _, line in code.co_lines()}
    return {f"line {line}": leaf for (where, line), result in dispatched.items() if where == path and line in lines
            for leaf in jax.tree.leaves(result)[-1:] if is_device_array(leaf)}


def _held_leaves(value):
    """The leaves of a container or a pytree a frame holds (a NamedTuple train state), or of the fields
    of a dataclass instance that is not one (a solver's result record); [] for anything else."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        value = [getattr(value, field.name, None) for field in dataclasses.fields(value)]
    leaves = jax.tree.leaves(value)
    return [] if len(leaves) == 1 and leaves[0] is value else leaves
