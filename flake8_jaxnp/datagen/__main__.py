"""``python -m flake8_jaxnp.datagen [--check]``: regenerate (or check) ``jax_api.json``."""
import sys

from .generate import main

sys.exit(main())
