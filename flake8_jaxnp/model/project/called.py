"""What a call that the project's reach follows runs (``modules.Project._reach``): the one function or
method it names, each function the project's calls hand a parameter it calls (``kernel(p, x)`` in ``def
gram(kernel, p, x)``; ``forward(p, x)`` in a factory's nested def), each entry a lookup in a dict of
functions may give (``KERNELS[name](p, x)``), the def a factory's call returns (``self.loss_of =
make_loss(fn)``)."""
from .defaults import is_test_module, looked_up_entries, passed_values, table_functions
from .targets import GIVEN_DEF, INSTANCE_METHOD, PARAMETER_METHOD, PASSED_FUNCTION, TABLE_ENTRY


def functions_run(project, path, unit, origin, binding, attributes, applied):
    """[((module path, unit), facts, positions self takes, unlinked)] for what a call recorded in the
    flows of ``unit`` of the module at ``path`` runs: each function the project's calls pass the
    parameter it calls (``passed_functions``; of a parameter whose class is not known, ``[PARAMETER_METHOD,
    "kernel", "__call__"]`` in a top-level def: those every call passes alike), each entry a dict lookup
    may give (``table_functions``), the def a factory's call returns (``given_def``), else the one function
    or method it names (``origin``: the module whose imports name it). Unlinked: the in-file model of the
    function's module cannot tie the call to it, so the reach says it even from that module: a function
    other modules hand in, an entry of a lookup called as it is (one a transform takes,
    ``jax.grad(LOSSES[name])``, that model follows: ``applied``, the call's transform), the def a factory
    returns."""
    if binding is None and attributes[0] == PASSED_FUNCTION:
        return passed_functions(project, path, unit, *attributes[1:2], *attributes[3:])
    if binding is None and attributes[0] == PARAMETER_METHOD:
        return passed_functions(project, path, unit, attributes[1], agreeing=True) \
            if attributes[2] == "__call__" and "." not in unit else []
    if attributes[-3:-2] == [TABLE_ENTRY]:
        return [(*entry, applied is None) for entry in table_functions(project, origin, binding, attributes)]
    if attributes[-4:-3] == [TABLE_ENTRY] and attributes[-1] == GIVEN_DEF:  # MAKERS[name](cfg): each entry's def
        module, entries = looked_up_entries(project, origin, binding, attributes[:-1])
        return [(*given_def(project, module, *entry), True) for entry in entries]
    if attributes[-1:] == [GIVEN_DEF]:
        return [(*given_def(project, origin, binding, attributes[:-1]), True)]
    return [(*project._callee(origin, binding, attributes), False)]


def passed_functions(project, path, unit, param, method=None, agreeing=False):
    """[((module path, unit), facts, positions self takes, unlinked)] for the functions that the
    project's calls of the top-level def or class around ``unit`` of the module at ``path`` (a class:
    its ``__init__``) pass as its parameter ``param`` (``passed_values``): one named there, or the def
    that a factory's call there returns (``Collector(policy=make_policy(cfg))``: ``make_policy.policy``).
    With ``method``, that method of the objects they pass built (``model.apply(p, x)`` of ``net =
    Net(2.0); make_step(net)``: ``Net.apply``) instead. ``agreeing``: those every call passes alike
    (``passed_values``), for a def that calls its own parameter. Unlinked: no call that hands it on is in
    its own module, whose in-file model then cannot know what the parameter holds
    (``exact_score(log_density)`` beside ``ring_log_density``, given by a script)."""
    factory, summary = unit.split(".")[0], project.summary(path)
    facts = summary["functions"].get(factory)
    if facts is None and f"{factory}.__init__" in summary["methods"]:
        facts = {"params": summary["methods"][f"{factory}.__init__"]["params"][1:]}
    project.reach_inputs.listed(project.folder_files())
    files = [other for other in project.folder_files() if not is_test_module(other)]
    handing = {}  # (module path, name), built -> the modules of the calls that hand it on
    for target, built, (other, _) in passed_values(project, files, path, factory, facts["params"], param,
                                                   bound=method is not None, agreeing=agreeing) if facts else ():
        handing.setdefault((target, built is not None), set()).add(other)
    found = []
    for ((other, name), built), modules in handing.items():
        if method is not None:  # (a method of the class an object was built of; None of a function's)
            found.extend([(*project._callee(other, None, [name, INSTANCE_METHOD, method]), other not in modules)]
                         if built else [])
        elif not built:
            found.append((*project._callee(other, None, [name]), other not in modules))
        else:
            found.append((*given_def(project, other, None, [name]), other not in modules))
    return [entry for entry in found if entry[1] is not None]


def given_def(project, path, binding, attributes):
    """((module path, unit), facts, 0) for the def that a call of the project function a call recorded in
    the module at ``path`` names returns (``make_loss.loss_of``: its summary's ``gives``); facts None when
    it returns no def of its own."""
    target = project.target_of(path, binding, attributes)
    summary = project.summary(target[0], defines=target[1]) if target is not None else None
    gives = summary["functions"].get(target[1], {}).get("gives") if summary else None
    return ((target[0], f"{target[1]}.{gives['name']}"), gives, 0) if gives else (None, None, 0)
