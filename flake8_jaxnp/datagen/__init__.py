"""The generator of ``jax_api.json``: build-time code that runs JAX, NumPy and the
frameworks to learn the facts the linter reads (``python -m flake8_jaxnp.datagen``).

Nothing that lints, nor the runtime mode, imports this package, and the findings
cache does not hash it: editing the generator changes no user's findings until the
data file it writes changes.
"""
