"""flake8-jaxnp: lint the pitfalls of mixing JAX and NumPy."""
__version__ = "0.1.0"
