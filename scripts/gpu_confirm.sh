#!/usr/bin/env bash
# Runtime confirmation on a GPU, both modes: flake8-jaxnp-confirm over the fixtures and the
# confirm tests with --platform gpu --require-gpu, then pytest --jaxnp-confirm over the example
# project. Installs the CUDA build of the pinned JAX when JAX cannot see a GPU yet. Takes a few
# minutes; exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."

python -m pip install --quiet -e ".[test]"
if ! python -c 'import jax, sys; sys.exit(jax.default_backend() != "gpu")' 2>/dev/null; then
    jax_version=$(python -c 'import jax; print(jax.__version__)')
    python -m pip install --quiet "jax[cuda12]==${jax_version}"
fi
python -c 'import jax; print("backend:", jax.default_backend(), jax.devices())'

status=0
time flake8-jaxnp-confirm --platform gpu --require-gpu --timeout 120 fixtures/*.py || status=$?
echo "flake8-jaxnp-confirm exit status: ${status}"
JAXNP_CONFIRM_PLATFORM=gpu python -m pytest -q tests/runtime/test_confirm_cli.py tests/runtime/test_confirm_attacks.py || status=$?
# The pytest plugin runs in pytest's process: JAX picks the GPU by itself.
(cd fixtures/pytest_project && JAX_PLATFORMS=cuda python -m pytest -q -p no:cacheprovider --jaxnp-confirm \
    --jaxnp-strict .) || status=$?
exit "${status}"
