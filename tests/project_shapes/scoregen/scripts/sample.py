"""Sample from a score model and compare with the data: `python scripts/sample.py [--ddim]`."""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

from scorekit import Sampler, ScoreModel, TrainConfig, ddim_sample, load_dataset, make_schedule  # noqa: E402
from scorekit import metrics, targets  # noqa: E402
from scorekit.sampling import ddim_sample_traced  # noqa: E402

CFG = TrainConfig()
NUM_SAMPLES = 64


def setup(cfg=CFG):
    model = ScoreModel(cfg.model)
    params = model.init(jax.random.key(cfg.seed))
    return model, params, make_schedule(cfg.schedule)


def sample_ddpm(trajectory=None, clips=(3.0,), fresh_sampler=False):
    model, params, sched = setup()
    sampler = Sampler(model, sched)
    key = jax.random.key(1)
    out = []
    for clip in clips:
        if fresh_sampler:
            sampler = Sampler(model, sched, clip=clip)
        else:
            # project shape (not a thread): the clip read by the jitted step, changed on the same sampler
            sampler.clip = clip  # reported: JNP306
        key, sub = jax.random.split(key)
        out.append(sampler.sample(params, sub, NUM_SAMPLES, trajectory=trajectory))
    return out


def case_ddpm_trajectory():
    trajectory = []
    sample_ddpm(trajectory=trajectory)
    return np.stack(trajectory)


def case_ok_ddpm():
    return sample_ddpm()


def case_clip_sweep():
    return sample_ddpm(clips=(3.0, 1.0))


def case_ok_clip_sweep_fresh_sampler():
    return sample_ddpm(clips=(3.0, 1.0), fresh_sampler=True)


def case_ddim():
    model, params, sched = setup()
    return ddim_sample(model, params, jax.random.key(2), NUM_SAMPLES, sched.alpha_bars)


def case_ok_ddim_traced():
    model, params, sched = setup()
    return ddim_sample_traced(model, params, jax.random.key(2), NUM_SAMPLES, sched.alpha_bars)


def _preview(predict):
    model, params, sched = setup()
    x = jax.random.normal(jax.random.key(3), (NUM_SAMPLES, 2))
    t = jnp.full((NUM_SAMPLES,), 10)
    return predict(params, x, t, jnp.asarray(sched.alpha_bars[10]))


def case_predict_x0():
    model, _, _ = setup()
    return _preview(model.predict_x0)


def case_ok_denoised():
    model, _, _ = setup()
    return _preview(model.denoised)


def score_grid(log_density, size=5):
    axis = np.linspace(-2.0, 2.0, size, dtype=np.float32)
    grid = np.stack(np.meshgrid(axis, axis), -1).reshape(-1, 2)
    return targets.exact_score(log_density)(grid)


def case_ring_score_grid():
    return score_grid(targets.ring_log_density)


def case_ok_ring_score_grid_safe():
    return score_grid(targets.ring_log_density_safe)


def _quality(**options):
    samples = sample_ddpm()[0]
    data = load_dataset(CFG.dataset, NUM_SAMPLES, seed=5)
    return metrics.energy_distance(samples, data, **options)


def case_energy_distance_precise():
    return _quality(precise=True)


def case_ok_energy_distance():
    return _quality()


def case_coverage():
    return metrics.coverage(sample_ddpm()[0], load_dataset(CFG.dataset, NUM_SAMPLES, seed=5))


def case_ok_coverage_stable():
    return metrics.coverage_stable(sample_ddpm()[0], load_dataset(CFG.dataset, NUM_SAMPLES, seed=5))


def case_check_samples():
    return metrics.check_samples(sample_ddpm()[0])


def case_ok_check_samples_isfinite():
    return bool(jnp.isfinite(sample_ddpm()[0]).all())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ddim", action="store_true")
    args = parser.parse_args()
    samples = case_ddim() if args.ddim else case_ok_ddpm()[0]
    print("energy distance", float(metrics.energy_distance(samples, load_dataset(CFG.dataset, NUM_SAMPLES))))


if __name__ == "__main__":
    main()
