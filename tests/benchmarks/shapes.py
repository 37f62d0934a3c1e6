"""Generated programs that stress the model: each shape takes a size and returns source
(a project shape returns its modules: {file name: source}).

Used by ``growth.py`` (time at N and 2N) and by ``tests/robustness/test_scaling.py`` (no
JNP900, findings still found).
"""
import textwrap

HEADER = "import jax\nimport jax.numpy as jnp\nimport numpy as np\n\nstep = jax.jit(lambda x: x + 1)\n"


def nested_loops(depth):
    """``depth`` nested for loops, a jitted step and a per-step conversion innermost."""
    lines = [HEADER, "def train(x):"]
    for level in range(depth):
        lines.append("    " * (level + 1) + f"for i{level} in range(10):")
    inner = "    " * (depth + 1)
    lines += [inner + "x = step(x)", inner + "loss = float(x)", "    return x"]
    return "\n".join(lines) + "\n"


def elif_chain(branches):
    """One if/elif chain of ``branches`` arms inside a loop, each assigning a device value."""
    lines = [HEADER, "def pick(x, k):", "    for _ in range(10):", "        if k == 0:", "            y = step(x)"]
    for arm in range(1, branches):
        lines += [f"        elif k == {arm}:", f"            y = step(x) + {arm}"]
    lines += ["        else:", "            y = step(x)", "        print(y)", "    return y"]
    return "\n".join(lines) + "\n"


def conversions_in_one_loop(count):
    """One loop whose body converts ``count`` device values."""
    lines = [HEADER, "def run(x):", "    for _ in range(10):", "        x = step(x)"]
    lines += [f"        v{i} = float(x)" for i in range(count)]
    lines.append("    return x")
    return "\n".join(lines) + "\n"


def branchy_body(statements):
    """A long straight-line body with an ``if`` every ten statements, each binding new names."""
    lines = [HEADER, "def long(x, flag):", "    y = step(x)"]
    for i in range(statements // 10):
        lines += [f"    a{i} = jnp.ones(3)", f"    if flag > {i}:", f"        b{i} = a{i} * 2", "    else:",
                  f"        b{i} = a{i} + 1"]
        lines += [f"    c{i}_{j} = b{i} + {j}" for j in range(6)]
    lines.append("    return np.asarray(y)")
    return "\n".join(lines) + "\n"


def static_print_through_branches(branches):
    """A jitted function that prints a name bound in ``branches`` branches on each of seven
    levels, every binding a shape or the level below: the print is static (not JNP301)."""
    lines = [HEADER, "@jax.jit", "def f(x, c):"]
    for level in range(7):
        source = "x.shape[0]" if level == 0 else f"a{level - 1}"
        for branch in range(branches):
            lines += [f"    if c == {branch}:", f"        a{level} = {source}"]
    lines += ["    print(a6)", "    return x"]
    return "\n".join(lines) + "\n"


def modern_syntax(copies):
    """Python 3.12 forms (match captures, PEP 695 type parameters and aliases), repeated."""
    block = textwrap.dedent('''
        type Array{i} = jnp.ndarray

        def first{i}[T](items: list[T]) -> T:
            return items[0]

        class Box{i}[T]:
            def get(self) -> T: ...

        @jax.jit
        def matched{i}(x, spec):
            match spec:
                case np:
                    y = np.sin(x)
                case [np, *_]:
                    y = np.cos(x)
                case {{**np}}:
                    y = np.tan(x)
            return y
        ''')
    return HEADER + "".join(block.format(i=i) for i in range(copies))


def module_chain(count):
    """A package of ``count`` modules: m0 jits a step that calls m1.f with a tracer, each
    m<i>.f computes on it, prints it and calls m<i+1>.f: a trace ``count`` modules long."""
    link = "import jax.numpy as jnp\n\nfrom . import m{next}\n\n\ndef f(x, n):\n    y = jnp.tanh(x) * n\n" \
           "    print(y)\n    return m{next}.f(y, n)\n"
    modules = {"__init__.py": "", "m0.py": "from functools import partial\n\nimport jax\n\nfrom . import m1\n\n\n"
               "@partial(jax.jit, static_argnums=1)\ndef step(x, n):\n    return m1.f(x, n)\n"}
    modules.update((f"m{i}.py", link.format(next=i + 1)) for i in range(1, count - 1))
    modules[f"m{count - 1}.py"] = "import jax.numpy as jnp\n\n\ndef f(x, n):\n    print(x)\n    return x\n"
    return modules


def roots_chain(count):
    """A package of ``count`` modules, each applying jax.jit at call sites to what the next
    one gives (``jax.jit(m<i+1>.make())``: the def make returns, which prints its tracer
    and calls m<i+2>.f) and to a method (``self.step = jax.jit(self._step)``)."""
    link = "import jax\nimport jax.numpy as jnp\n\nfrom . import m{next}\n\n\ndef make():\n    def inner(x):\n" \
           "        print(x)\n        return m{next}.f(x)\n    return inner\n\n\n" \
           "def f(x):\n    return jnp.tanh(x)\n\n\n" \
           "class Runner:\n    def __init__(self):\n        self.step = jax.jit(self._step)\n\n" \
           "    def _step(self, x):\n        return m{next}.f(x * 2)\n\n\nfast = jax.jit(m{next}.make())\n"
    modules = {"__init__.py": ""}
    modules.update((f"m{i}.py", link.format(next=i + 1)) for i in range(count - 1))
    modules[f"m{count - 1}.py"] = "import jax.numpy as jnp\n\n\ndef make():\n    def inner(x):\n        print(x)\n" \
                                  "        return x\n    return inner\n\n\ndef f(x):\n    return jnp.tanh(x)\n"
    return modules


# name -> (generator, the size N that growth.py compares with 2N)
SHAPES = {
    "nested loops": (nested_loops, 10),
    "elif chain": (elif_chain, 1200),
    "conversions in one loop": (conversions_in_one_loop, 5000),
    "branchy body": (branchy_body, 10000),
    "python 3.12 syntax": (modern_syntax, 500),
    "static print through branches": (static_print_through_branches, 100),
}
# name -> (generator of a project's modules, the number of modules N compared with 2N)
PROJECT_SHAPES = {
    "modules in a chain": (module_chain, 100),
    "roots at call sites": (roots_chain, 100),
}
