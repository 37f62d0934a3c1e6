"""Run settings: frozen system and integrator configs inside a mutable run config."""
import dataclasses


@dataclasses.dataclass(frozen=True)
class SystemConfig:
    n_side: int = 4
    density: float = 0.8
    temperature: float = 1.0
    potential: str = "lj"
    cutoff: float = 2.5

    @property
    def n_particles(self):
        return self.n_side ** 3


@dataclasses.dataclass(frozen=True)
class IntegratorConfig:
    name: str = "verlet"
    dt: float = 0.005
    gamma: float = 1.0
    steps_per_chunk: int = 20
    thermostat: str = "none"
    tau: float = 0.1


@dataclasses.dataclass
class RunConfig:
    system: SystemConfig = dataclasses.field(default_factory=SystemConfig)
    integrator: IntegratorConfig = dataclasses.field(default_factory=IntegratorConfig)
    energy: str = "ok"
    n_chunks: int = 5
    seed: int = 0
    out_dir: str = "runs/default"
