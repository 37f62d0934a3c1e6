#!/usr/bin/env bash
# Runtime confirmation on a GPU: the fixture suite and tests/test_confirm.py with
# --platform gpu --require-gpu. Installs the CUDA build of the pinned JAX when
# JAX cannot see a GPU yet. Takes a few minutes; exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."

python -m pip install --quiet -e ".[test]"
if ! python -c 'import jax, sys; sys.exit(jax.default_backend() != "gpu")' 2>/dev/null; then
    jax_version=$(python -c 'import jax; print(jax.__version__)')
    python -m pip install --quiet "jax[cuda12]==${jax_version}"
fi
python -c 'import jax; print("backend:", jax.default_backend(), jax.devices())'

time flake8-jaxnp-confirm --platform gpu --require-gpu --timeout 120 fixtures/ || status=$?
echo "flake8-jaxnp-confirm exit status: ${status:-0}"
JAXNP_CONFIRM_PLATFORM=gpu python -m pytest -q tests/test_confirm.py
