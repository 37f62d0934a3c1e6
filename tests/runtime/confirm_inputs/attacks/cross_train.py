"""Attack: the case is here, the pitfalls are in cross_model.py."""
import cross_model


def case_train():
    w = cross_model.make()
    for _ in range(3):
        w = cross_model.update(w, w)
    cross_model.report(3)
