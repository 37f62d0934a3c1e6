"""Eleventh round, held out: a right shift of uint32 by int32 that promotes to a 64-bit type JAX
truncates, and a nested sampler asking for jnp.int_ without x64 (JNP401, JNP402)."""
import jax.numpy as jnp


# https://github.com/jax-ml/jax/issues/16748
# uint32 >> int32 promotes to int64 in JAX as in NumPy, but with x64 off the result is squashed to
# int32: 0xFFFFFFFF >> 1 comes out as -1 where NumPy gives 2147483647.
def case_unsigned_shifted_by_signed():
    x = jnp.array(0xFFFFFFFF, jnp.uint32)
    y = jnp.array(1, jnp.int32)
    out = x >> y  # reported: JNP401
    return out, out.dtype


def case_ok_shift_by_the_same_type():
    x = jnp.array(0xFFFFFFFF, jnp.uint32)
    y = jnp.array(1, jnp.int32)
    out = x >> y.astype(jnp.uint32)
    return out, out.dtype


# https://github.com/Joshuaalbert/jaxns/issues/63
# The sampler converts the number of prior dimensions with jnp.int_, which is int64: in float32
# mode JAX warns and gives int32 on every run.
class PriorChain:
    U_ndims = 3


class NestedSampler:
    def __init__(self, prior_chain):
        self.prior_chain = prior_chain

    def initial_state(self):
        return jnp.asarray(self.prior_chain.U_ndims, jnp.int_)  # reported: JNP402


def case_dimensions_converted_with_int_():
    return NestedSampler(PriorChain()).initial_state()


class NestedSamplerIntType(NestedSampler):
    def initial_state(self):
        int_type = jnp.result_type(int)
        return jnp.asarray(self.prior_chain.U_ndims, int_type)


def case_ok_dimensions_converted_with_the_default_int():
    return NestedSamplerIntType(PriorChain()).initial_state()

