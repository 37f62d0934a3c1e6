"""Attack: a module that imports a compiled extension the worker did not have (SciPy's refuse a
second load in one process), run once per case."""
import scipy.special


def case_first():
    return float(scipy.special.erf(0.5))


def case_second():
    return float(scipy.special.erf(0.25))
