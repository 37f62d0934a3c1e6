"""Iterative LQR: derivatives by `jax.jacfwd`/`jax.grad`, a backward pass and a line search, scanned."""
import jax
import jax.numpy as jnp
from jax import lax

from .rollout import rollout

ALPHAS = jnp.array([1.0, 0.5, 0.25, 0.1, 0.03])


class ILQR:
    def __init__(self, cfg, dynamics_fn, cost_fn, record=False):
        self.cfg = cfg
        self.dynamics_fn, self.cost_fn = dynamics_fn, cost_fn
        self.f_x = jax.vmap(jax.jacfwd(dynamics_fn, argnums=0))
        self.f_u = jax.vmap(jax.jacfwd(dynamics_fn, argnums=1))
        self.l_x = jax.vmap(jax.grad(cost_fn, argnums=0))
        self.l_u = jax.vmap(jax.grad(cost_fn, argnums=1))
        self.l_xx = jax.vmap(jax.hessian(cost_fn, argnums=0))
        self.l_uu = jax.vmap(jax.hessian(cost_fn, argnums=1))

    def total_cost(self, xs, us):
        return jnp.sum(jax.vmap(self.cost_fn)(xs[:-1], us))

    def backward(self, xs, us):
        A, B = self.f_x(xs[:-1], us), self.f_u(xs[:-1], us)
        lx, lu = self.l_x(xs[:-1], us), self.l_u(xs[:-1], us)
        lxx, luu = self.l_xx(xs[:-1], us), self.l_uu(xs[:-1], us)
        reg = self.cfg.regularisation * jnp.eye(us.shape[-1])

        def step(carry, t):
            V_x, V_xx = carry
            a, b, qx, qu, qxx, quu = t
            Q_x = qx + a.T @ V_x
            Q_u = qu + b.T @ V_x
            Q_xx = qxx + a.T @ V_xx @ a
            Q_uu = quu + b.T @ V_xx @ b + reg
            Q_ux = b.T @ V_xx @ a
            k = -jnp.linalg.solve(Q_uu, Q_u)
            K = -jnp.linalg.solve(Q_uu, Q_ux)
            V_x = Q_x + K.T @ Q_uu @ k + K.T @ Q_u + Q_ux.T @ k
            V_xx = Q_xx + K.T @ Q_uu @ K + K.T @ Q_ux + Q_ux.T @ K
            return (V_x, 0.5 * (V_xx + V_xx.T)), (k, K)

        n = xs.shape[-1]
        _, (ks, Ks) = lax.scan(step, (jnp.zeros(n), jnp.zeros((n, n))), (A, B, lx, lu, lxx, luu), reverse=True)
        return ks, Ks

    def forward(self, x0, xs, us, ks, Ks, alpha):
        def step(x, t):
            x_ref, u, k, K = t
            u_new = u + alpha * k + K @ (x - x_ref)
            return self.dynamics_fn(x, u_new), (x, u_new)

        x_last, (new_xs, new_us) = lax.scan(step, x0, (xs[:-1], us, ks, Ks))
        return jnp.concatenate([new_xs, x_last[None]]), new_us

    def improve(self, x0, xs, us):
        """One iteration: the backward pass, then the best step length of ALPHAS."""
        ks, Ks = self.backward(xs, us)
        trials = jax.vmap(lambda a: self.forward(x0, xs, us, ks, Ks, a))(ALPHAS)
        costs = jax.vmap(self.total_cost)(*trials)
        best = jnp.argmin(costs)
        better = costs[best] < self.total_cost(xs, us)
        new_xs = jnp.where(better, trials[0][best], xs)
        new_us = jnp.where(better, trials[1][best], us)
        return new_xs, new_us

    def plan(self, x0, us, key=None):
        xs = rollout(self.dynamics_fn, x0, us)
        xs, us = lax.fori_loop(0, self.cfg.n_iters, lambda i, c: self.improve(x0, *c), (xs, us))
        return us


class BacktrackingILQR(ILQR):
    """iLQR with the textbook backtracking line search: halve alpha until the cost goes down."""

    def improve(self, x0, xs, us):
        ks, Ks = self.backward(xs, us)
        cost = self.total_cost(xs, us)
        alpha = 1.0
        for _ in range(5):
            new_xs, new_us = self.forward(x0, xs, us, ks, Ks, alpha)
            # project shape (not a thread): a Python branch on the traced cost inside the fori_loop
            if self.total_cost(new_xs, new_us) < cost:  # reported: JNP202
                return new_xs, new_us
            alpha = alpha / 2
        return xs, us
