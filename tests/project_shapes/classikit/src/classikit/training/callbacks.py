"""Callbacks the loops and steps call; they keep their state in module globals."""
LR_SCALE = 1.0
STEPS_SEEN = 0
LOSSES = []


def decay_lr(factor=0.5):
    global LR_SCALE
    LR_SCALE = LR_SCALE * factor


def on_step(loss):
    # project shape (not a thread): a step counter bumped by a callback that a jitted step calls
    global STEPS_SEEN
    STEPS_SEEN += 1  # reported: JNP302
    return loss


def record(loss):
    # project shape (not a thread): a loss history filled by a callback that a jitted step calls
    LOSSES.append(loss)  # reported: JNP303
    return loss
