"""A metric logger that keeps host floats, written every few steps."""
import json
import time


class MetricLogger:
    def __init__(self, path=None):
        self.path, self.rows, self.start = path, [], time.time()

    def log(self, step, **metrics):
        row = {"step": step, "time": time.time() - self.start, **{k: float(v) for k, v in metrics.items()}}
        self.rows.append(row)
        if self.path:
            with open(self.path, "a", encoding="utf-8") as f:
                f.write(json.dumps(row) + "\n")
        return row
