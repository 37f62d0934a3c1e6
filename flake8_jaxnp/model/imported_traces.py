"""Functions of this module that the project's traces reach from other modules: marked traced
here with the tracers those calls pass (``project.Project.callers``), or run at trace time."""
from .conventions import CONSTRUCTION_HOOKS
from .project.modules import shown
from .syntax import positional_names
from .traced import Transform


def traced_from_other_modules(names, roots, trace_time, project):
    """Top-level functions that the project's traces reach from other modules, with the
    tracers they pass: traced here, by a transform named after the caller and, when
    the caller is itself reached, the chain's root."""
    callers = project.callers()
    if not callers:
        return
    from .project.objects import unit_def  # (it summarises other modules: imported when one calls this one)

    for name, calls in sorted(callers.items()):
        func = unit_def(names.tree, name)
        if func is None:
            continue
        # Batch(x, y) built there runs __post_init__ here, self holding the fields it got
        fields = roots.conventions.dataclass_fields(func) if func.name in CONSTRUCTION_HOOKS else None
        accepted = {field.id for field in fields} if fields is not None \
            else set(positional_names(func)) | {a.arg for a in func.args.kwonlyargs}
        for given, transform, caller, path, line, root in calls:
            behaviour = roots.transforms.get(transform)
            params = set(given) & accepted
            if behaviour is None or not params and (given or caller is None):
                continue
            if caller is None:  # from .ops import loss; jax.jit(loss)
                where = f"applied in {shown(path)}:{line}"
            else:
                chain = f", traced from '{root[0]}' in {shown(root[1])}:{root[2]}" if root else ""
                where = f"called from '{caller}' in {shown(path)}:{line}{chain}"
            if params and fields is not None:
                roots.traced_fields.setdefault(func, set()).update(params)
                params = {"self"}
            if params:
                # The reach chose the parameters this transform traces: a filter transform's
                # static scalars are not among them, so its name here asks for no second choice.
                roots.mark(func, Transform(transform, behaviour, where, chosen=True), params)
            elif behaviour.cached:  # given no tracer: it runs at trace time, once per trace
                trace_time.setdefault(func, Transform(transform, behaviour, where))
