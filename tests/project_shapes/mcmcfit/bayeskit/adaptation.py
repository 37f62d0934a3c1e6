"""Step-size adaptation by dual averaging (Hoffman and Gelman), on host floats."""
import math


class DualAveraging:
    def __init__(self, step_size, target_accept, gamma=0.05, t0=10.0, kappa=0.75):
        self.mu, self.target = math.log(10.0 * step_size), target_accept
        self.gamma, self.t0, self.kappa = gamma, t0, kappa
        self.t, self.h_bar, self.log_step_bar = 0, 0.0, 0.0

    def update(self, accept_prob):
        """The next step size from an acceptance probability (a Python float)."""
        self.t += 1
        eta = 1.0 / (self.t + self.t0)
        self.h_bar = (1.0 - eta) * self.h_bar + eta * (self.target - accept_prob)
        log_step = self.mu - math.sqrt(self.t) / self.gamma * self.h_bar
        weight = self.t ** -self.kappa
        self.log_step_bar = weight * log_step + (1.0 - weight) * self.log_step_bar
        return math.exp(log_step)

    @property
    def final_step_size(self):
        return math.exp(self.log_step_bar)
