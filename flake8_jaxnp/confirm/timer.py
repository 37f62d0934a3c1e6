"""--measure-cost where the pitfall happens: the probes time each transfer, upload, compile and
unsynchronised clock read of a timing run. Imports jax.

In a timing run (``worker.event_timings``) the recorder carries a ``Timer``, and the probes that
see a transfer (``array_probes``) or a clock read or compile (``process_probes``) hand it the
operation instead of a transfer guard. No line is counted (no ``sys.settrace``), so only the
probes' own calls are in the times. Each sample is kept per line of the case's file and per
evidence kind, with the call of the case it came from (0: the first, which compiles).
"""
import inspect
import time
from collections import defaultdict

import jax

from .. import evidence as ev

CLOCK = inspect.unwrap(time.perf_counter)  # not the probe: the probes' own timing is no clock read of the case


class Timer:
    def __init__(self):
        self.call = 0  # the call of the case running now
        self.samples = defaultdict(list)  # (line, evidence kind) -> samples, dicts with the call they were in

    def add(self, places, kind, sample):
        """Keep ``sample`` once for each line of ``places`` (a comprehension's frame and its caller's share one)."""
        for line in sorted({line for _, line in places}):
            self.samples[(line, kind)].append(dict(sample, call=self.call))

    def conversion(self, arrays, convert):
        """(the result of ``convert()``, its sample): first the wait until the device has computed
        ``arrays``, then the copy itself; bytes: their data, each array counted once."""
        start = CLOCK()
        jax.block_until_ready(arrays)
        ready = CLOCK()
        result = convert()
        end = CLOCK()
        unique = {id(array): array for array in arrays}.values()
        return result, {"at": end, "wait_s": ready - start, "seconds": end - start,
                        "bytes": sum(array.nbytes for array in unique)}

    def upload(self, data, put):
        """(the device array ``put()`` makes of host ``data``, its sample: until it is on the device)."""
        start = CLOCK()
        result = jax.block_until_ready(put())
        end = CLOCK()
        return result, {"at": end, "seconds": end - start, "bytes": data.nbytes}

    def clock_read(self, places, arrays):
        """What a clock read leaves out: the wait, right after it, until ``arrays`` (the reading
        frame's device arrays) are computed; what ``block_until_ready`` before the read would add."""
        start = CLOCK()
        jax.block_until_ready(arrays)
        self.add(places, ev.UNFINISHED_AT_CLOCK, {"seconds": CLOCK() - start})

    def compile_stage(self, places, stage, seconds):
        """One stage (trace, lowering, backend compile) of a compile JAX made for a call at ``places``."""
        self.add(places, ev.RETRACE, {"stage": stage, "seconds": seconds})

    def by_line(self):
        """The samples as a message: [line, kind, samples] triples."""
        return [[line, kind, samples] for (line, kind), samples in sorted(self.samples.items())]
