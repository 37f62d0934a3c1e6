from . import mlp
from .nnx_net import Float32Forecaster, Forecaster, SquashedForecaster, TanhForecaster

__all__ = ["mlp", "Forecaster", "Float32Forecaster", "SquashedForecaster", "TanhForecaster"]
