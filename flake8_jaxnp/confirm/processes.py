"""Ending everything a case started: process groups, and on Linux a child subreaper.

A process that is a child subreaper (``prctl(PR_SET_CHILD_SUBREAPER)``, Linux
3.4+) inherits every orphaned descendant, including ones that started a new
session or process group, so it can find and end all of them through
``/proc/PID/task/*/children``. Elsewhere only the worker's own process group is
ended; a descendant that left it (``setsid``) can outlive the run.
"""
import ctypes
import os
import signal

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36


def _prctl(option, value):
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(option, value, 0, 0, 0) == 0
    except (OSError, AttributeError):  # not Linux
        return False


def become_subreaper():
    """Adopt orphaned descendants; returns whether this platform can."""
    return _prctl(PR_SET_CHILD_SUBREAPER, 1)


def die_with_parent():
    """SIGKILL this process when the thread that started it ends (Linux only)."""
    return _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def children(pid):
    found = set()
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children") as handle:
                found.update(int(child) for child in handle.read().split())
        except (OSError, ValueError):
            continue
    return found


def descendants(pid, keep=frozenset()):
    """Every live descendant of ``pid``, skipping ``keep`` and what lies below them."""
    found, stack = [], [child for child in children(pid) if child not in keep]
    while stack:
        child = stack.pop()
        found.append(child)
        stack.extend(children(child))
    return found


def end_descendants(keep=frozenset()):
    """SIGKILL and reap every descendant of this process except ``keep`` (and theirs).

    Orphans of killed descendants come back as children of a subreaper, so this
    repeats until nothing is left.
    """
    me = os.getpid()
    for _ in range(100):  # bounded: a fork bomb must not hang the run
        found = descendants(me, keep)
        if not found:
            return
        for pid in found:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                continue
        for pid in children(me) - set(keep):
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                continue


def kill_group(pid):
    """SIGKILL the process group that ``pid`` leads; False if there is none."""
    try:
        os.killpg(pid, signal.SIGKILL)
        return True
    except (AttributeError, ProcessLookupError, PermissionError):
        return False
