"""Which parameters of a def a transform gives tracers: not static, not defaulted, not bound by
``partial``, not ``self``, not unmapped by a vmap's ``in_axes``; and which Python ones its calls
give a literal of known truth. Shared by the file's trace roots
(``traced``) and the project's summaries, which read other modules without their roots."""
import ast

from .. import api
from .syntax import argument_for, defaults, named_options, positional_names, static_parameters


def applied_parameters(func, transform_name, keywords, bound_positional=0, bound_names=(), defaulted=False):
    """The parameters of ``func`` that a transform applied with ``keywords`` gives tracers,
    after ``partial`` bound ``bound_positional`` positions and ``bound_names``: not static,
    not defaulted (unless ``defaulted``: those it traces when a call passes them), not self, not
    unmapped by a vmap (its measured ``unmapping_option``; grad's argnums are left to the caller).
    None when its static options cannot be read."""
    params = traced_parameters(func, bound_positional, bound_names, defaulted)
    positional = positional_names(func)[bound_positional:]
    options = named_options(keywords)
    static = static_parameters(options, positional)
    if static is None:
        return None
    params -= static
    axes_option = api.unmapping_options().get(transform_name)
    if axes_option in options:
        params = _mapped(params, positional, options[axes_option])
    return params


def transform_options(transform_name, call):
    """The call's keywords, with positional options (``vmap(f, (0, None))``) named."""
    names = api.positional_options().get(transform_name, ())
    named = [ast.keyword(arg=name, value=value) for name, value in zip(names, call.args[1:])]
    return named + list(call.keywords)


def traced_parameters(func, bound_positional=0, bound_names=(), defaulted=False):
    """Parameters that receive tracers: not bound by partial, not defaulted (unless ``defaulted``),
    not self/cls."""
    args = func.args
    bound = bound_positional == 0 and not isinstance(func, ast.Lambda)  # a method's self or cls
    names = positional_names(func, bound)[bound_positional:] + [a.arg for a in args.kwonlyargs]
    if args.vararg:
        names.append(args.vararg.arg)
    return set(names) - set(bound_names) - (set() if defaulted else set(defaults(func)))


def known_truths(func, names, calls, positional_params, traced_when_passed, staged):
    """{parameter: (its truth, the literals' types)} for the parameters among ``names`` that every
    call in ``calls`` gives a literal of one truth, or leaves to such a default (``jitted(x,
    check=False)`` with ``check`` static): what a test of them skips never runs. A parameter in
    ``traced_when_passed`` (defaulted, not static) is known only where no ``staged`` call (through
    a transform) passes it: the transform makes what it is given a tracer."""
    default_of = defaults(func)
    unclear = any(any(type(a) is ast.Starred for a in call.args) or any(k.arg is None for k in call.keywords)
                  for call in calls)  # (``*args``, ``**kwargs``: which parameter gets what is not said)
    known = {}
    for name in names if not unclear else ():
        given = [argument_for(call, positional_params, name) for call in calls]
        if name in traced_when_passed and any(passed is not None and call in staged
                                              for call, passed in zip(calls, given)):
            continue
        literals = [passed or default_of.get(name) for passed in given]
        truths = {bool(expr.value) if type(expr) is ast.Constant else None for expr in literals}
        if len(truths) == 1 and None not in truths:
            known[name] = truths.pop(), {type(expr.value) for expr in literals}
    return known


def _mapped(params, positional, in_axes):
    """Parameters a vmap maps; unknown axes leave none traced."""
    if isinstance(in_axes, ast.Constant) and isinstance(in_axes.value, int):
        return params
    if isinstance(in_axes, (ast.Tuple, ast.List)):
        unbatched = {positional[i] for i, axis in enumerate(in_axes.elts)
                     if i < len(positional) and isinstance(axis, ast.Constant) and axis.value is None}
        return params - unbatched
    return set()


def traces_the_class(func, decorators, index, keywords):
    """Whether the transform decorating ``func`` at ``index`` of its decorators (their qualnames:
    ``decorators``) sits under @classmethod and traces the class it is then given first: every
    call fails on it (a class is not a JAX type; registering one registers its instances).
    False when the static options cannot be read."""
    if "builtins.classmethod" not in decorators[:index]:
        return False
    names = positional_names(func)
    static = static_parameters(named_options(keywords), names)
    return static is not None and bool(names) and names[0] not in static


def binds_first_parameter(expr, func):
    """Whether ``self.m`` / ``cls.m`` / ``Model.m`` is a bound method: a staticmethod binds nothing,
    and a plain function read from ``cls`` or its class is not bound either."""
    if not isinstance(expr, ast.Attribute) or isinstance(func, ast.Lambda):
        return False
    decorators = {d.id for d in func.decorator_list if isinstance(d, ast.Name)}
    return "staticmethod" not in decorators and (getattr(expr.value, "id", None) == "self"
                                                 or "classmethod" in decorators)
