"""Train the NNX forecasters: `python examples/train_nnx.py` from anywhere."""
import os
import sys

sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))

from flax import nnx  # noqa: E402

import tsflow  # noqa: E402
from tsflow import Float32Forecaster, Forecaster, Trainer, TrainConfig  # noqa: E402
from tsflow.models import SquashedForecaster, TanhForecaster  # noqa: E402

CFG = TrainConfig()


def build(model_cls=Float32Forecaster, cfg=CFG, **trainer_options):
    model = model_cls(cfg.model, rngs=nnx.Rngs(cfg.seed))
    return Trainer(model, cfg, **trainer_options), tsflow.load(cfg)


def case_float64_level():
    trainer, data = build(Forecaster)
    return trainer.fit_on_device(data)


def case_ok_float32_level():
    trainer, data = build(Float32Forecaster)
    return trainer.fit_on_device(data)


def case_history_as_floats():
    trainer, data = build()
    return trainer.fit(data)


def case_verbose_fit():
    trainer, data = build()
    return trainer.fit(data, verbose=True)


def case_ok_history_on_device_logged_every_n():
    trainer, data = build()
    return trainer.fit_on_device(data, verbose=True).tolist()


def case_squashed_encoder():
    trainer, data = build(SquashedForecaster)
    return trainer.fit_on_device(data)


def case_ok_tanh_encoder():
    trainer, data = build(TanhForecaster)
    return trainer.fit_on_device(data)


def case_nan_check_in_step():
    trainer, data = build(check_nan=True)
    return trainer.fit_on_device(data)


def case_wape_on_windows_without_demand():
    trainer, data = build(loss_fn=tsflow.wape)
    return trainer.fit_on_device(data)


def case_ok_safe_wape_on_windows_without_demand():
    trainer, data = build(loss_fn=tsflow.safe_wape)
    return trainer.fit_on_device(data)


def main():
    trainer, data = build()
    history = trainer.fit_on_device(data, verbose=True)
    print(f"final loss {float(history[-1]):.4f}")


if __name__ == "__main__":
    main()
