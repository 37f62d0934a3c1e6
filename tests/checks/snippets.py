"""Snippets for the check tests: a module header with a jitted step, and what lint makes of them."""
import ast
import textwrap

from flake8_jaxnp.linter import lint
from flake8_jaxnp.options import Options

HEADER = """\
import jax
import jax.numpy as jnp
import numpy as np

@jax.jit
def step(p):
    return p * 0.5, jnp.sum(p)
"""


def source(body):
    return HEADER + textwrap.dedent(body)


def codes(findings, prefix="JNP"):
    return sorted(code for _, code in findings if code.startswith(prefix))


def messages(text, options=Options()):
    return [finding.message for finding in lint(ast.parse(text), text.splitlines(True), options)]
