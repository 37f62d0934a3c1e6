"""Finer points of JNP1xx (transfers in loops) not covered by the fixtures."""
from snippets import codes, source


def test_one_finding_per_transfer(lint_source):
    found = lint_source(source("""
        def train(p):
            for _ in range(1000):
                p, loss = step(p)
                print(float(loss))
                print(f"{np.asarray(loss)}")
                print(str(loss.item()))
    """))
    assert codes(found) == ["JNP101", "JNP102", "JNP102"]


def test_a_conversion_mapped_over_a_device_tree_copies_every_leaf(lint_source):
    # The runtime mode sees np.asarray called from JAX's tree_map, not from the loop: asserted here.
    found = lint_source(source("""
        def train(p):
            for _ in range(1000):
                p = step(p)
                jax.tree.map(np.asarray, p)
                jax.tree.map(float, p)
                jax.tree.map(jnp.copy, p)
                jax.tree.map(lambda leaf: np.asarray(leaf, copy=True), p)
    """))
    assert found == [(12, "JNP101"), (13, "JNP102")]


def test_local_named_np_is_not_numpy(lint_source):
    found = lint_source(source("""
        def train(p, np):
            for _ in range(1000):
                p, loss = step(p)
                np.asarray(loss)
    """))
    assert codes(found) == []


def test_inner_loop_under_a_guard_still_repeats(lint_source):
    found = lint_source(source("""
        def train(p):
            for epoch in range(1000):
                if epoch % 2 == 0:
                    for _ in range(1000):
                        p, loss = step(p)
                        print(loss)
                    print(loss)
    """))
    assert found == [(14, "JNP103")]


def test_every_n_exemption_holds_in_an_inner_loop_over_the_same_array(lint_source):
    found = lint_source(source("""
        def train(p, splits):
            for i in range(1000):
                p, loss = step(p)
                if i % 100 == 0:
                    for split in splits:
                        print(split, float(loss), loss.item(), f"{split}: {loss}")
                        print(split, float(jnp.sum(p)))
                        score = p[0]
                        print(split, float(score))

        def log_every_step(p, splits):
            for i in range(1000):
                p, loss = step(p)
                for split in splits:
                    print(split, float(loss))
    """))
    # under the every-N block the splits are evaluated once every N steps, whatever they convert;
    # on every step, a new device value per split syncs on each of them (the same loss only once)
    assert found == [(23, "JNP102")]


def test_evaluation_loop_in_an_every_n_block_is_not_hot(lint_source):
    found = lint_source(source("""
        def train(p, batches, eval_batches):
            for i, batch in enumerate(batches):
                p, loss = step(p + batch)
                if (i + 1) % 100 == 0 and i > 0:
                    for batch in eval_batches:
                        print(float(jnp.sum(p * batch)))

        def train_under_every_n(p):
            for epoch in range(1000):
                q = step(p)
                if epoch % 2 == 0:
                    for _ in range(1000):
                        p, loss = step(p)
                        print(float(loss))

        def only_the_block(p):
            for epoch in range(1000):
                if epoch % 2 == 0:
                    for _ in range(1000):
                        p, loss = step(p)
                        print(float(loss))

        def not_every_n(p, eval_batches, flag):
            for i in range(1000):
                p, loss = step(p)
                if flag:
                    for batch in eval_batches:
                        print(float(jnp.sum(p * batch)))
    """))
    # an evaluation loop (its own names; the outer loop's target may be reused) runs once per N
    # steps; a loop that advances what the outer loop carries (p), or the outer loop's only work,
    # is the training loop itself; a block under any other test may run on every step
    assert found == [(22, "JNP102"), (29, "JNP102"), (36, "JNP102")]


def test_sync_once_per_outer_loop_is_the_inner_loops_boundary(lint_source):
    found = lint_source(source("""
        def train(p, batches):
            host = np.ones(3, dtype=np.float32)
            for epoch in range(1000):
                for batch in batches:
                    p, loss = step(p)
                print(f"epoch {epoch}: {loss}")
                if not jnp.isfinite(loss):
                    break
                p = p + jnp.asarray(host)
            return p
    """))
    assert found == [(17, "JNP104")]  # a repeated upload of unchanged data is waste all the same


def test_comprehension_first_iterable_runs_once(lint_source):
    found = lint_source(source("""
        def summary(p):
            values = [v for v in np.asarray(jnp.sin(p))]
            rows = [np.asarray(r) for r in jnp.sin(p)]
            return values, rows
    """))
    assert found == [(11, "JNP101")]


def test_only_the_first_operand_of_and_is_unconditional(lint_source):
    found = lint_source(source("""
        def train(p, verbose):
            for i in range(1000):
                p, loss = step(p)
                if loss > 1 and verbose:
                    pass
                if i % 10 == 0 and loss > 1:
                    pass
                if verbose and loss > 1:
                    pass
    """))
    # after a flag the loop never rebinds, a later operand runs on every step or on none
    assert found == [(12, "JNP102"), (16, "JNP102")]


def test_continue_in_an_earlier_branch_guards_what_follows(lint_source):
    found = lint_source(source("""
        def train(p):
            for i in range(1000):
                p, loss = step(p)
                if i % 5:
                    continue
                print(loss)
            while True:
                p, loss = step(p)
                if i > 3:
                    break
                print(loss)
    """))
    assert found == [(19, "JNP103")]  # break ends the loop: until then it prints every time


def test_traced_loops_and_module_loops(lint_source):
    found = lint_source(source("""
        @jax.jit
        def unrolled(x):
            for _ in range(1000):
                x = jnp.sin(x)
                y = jnp.asarray(np.ones(3, dtype=np.float32))
            return x + y

        p = jnp.ones(3)
        for _ in range(1000):
            p, loss = step(p)
            losses = float(loss)
    """))
    assert codes(found, "JNP1") == ["JNP102"]


def test_upload_is_invariant_only_in_its_innermost_loop(lint_source):
    found = lint_source(source("""
        def train(p):
            for epoch in range(1000):
                data = np.full(3, epoch, dtype=np.float32)
                for _ in range(1000):
                    p = p + jnp.asarray(data)
                p = p + jnp.asarray(data)
            return p
    """))
    assert found == [(13, "JNP104")]


def test_upload_to_a_new_device_each_iteration_is_not_repeated(lint_source):
    found = lint_source(source("""
        def replicate(device):
            host = np.ones(3, dtype=np.float32)
            copies = [jax.device_put(host, d) for d in jax.devices()]
            for _ in range(1000):
                copies.append(jax.device_put(host, device))
            return copies
    """))
    assert found == [(13, "JNP104")]


def test_upload_of_a_global_that_functions_rebind_is_silent(lint_source):
    found = lint_source(source("""
        TABLE = np.ones(3, dtype=np.float32)

        def reload():
            global TABLE
            TABLE = np.zeros(3, dtype=np.float32)

        def train(p):
            for _ in range(1000):
                reload()
                p = p + jnp.asarray(TABLE)
            return p
    """))
    assert codes(found) == []


def test_a_while_test_syncs_once_the_step_has_made_its_operand_a_device_array(lint_source):
    found = lint_source(source("""
        @jax.jit
        def count(i, p):
            return i + 1, p * 2

        def counts(p):
            i = 0
            while i < 10:
                i, p = count(i, p)

        def converges(p):
            loss = float("inf")
            while loss > 1e-3:
                p, loss = step(p)

        def python_counter(p):
            i = 0
            while i < 10:
                _, p = count(i, p)
                i += 1

        def skips(p):
            i = 0
            while i < 10:
                if p is None:
                    i = 0
                    continue
                i, p = count(i, p)
    """))
    assert found == [(15, "JNP102"), (20, "JNP102")]


def test_a_guard_on_an_argument_left_to_none_runs_every_step_or_none(lint_source):
    found = codes(lint_source(source("""
        def sample(p, n, trajectory=None):
            for _ in range(n):
                p, loss = step(p)
                if trajectory is not None:
                    trajectory.append(np.asarray(p))
            return p

        def sample_until(p, n, trajectory=None):
            for _ in range(n):
                p, loss = step(p)
                if trajectory is not None:
                    trajectory.append(np.asarray(p))
                    trajectory = None if len(trajectory) > 3 else trajectory
            return p
    """)))
    # the loop that rebinds the argument tested does not convert on every step alike
    assert found == ["JNP101"]


def test_a_comparison_after_a_flag_in_an_and_runs_every_step_or_none(lint_source):
    found = lint_source(source("""
        def train(p, n, keep_best=False):
            best = float("inf")
            for _ in range(n):
                p, loss = step(p)
                if keep_best and loss < best:
                    best = loss
            return best

        def train_until(p, n, keep_best=False):
            best = float("inf")
            for _ in range(n):
                p, loss = step(p)
                if keep_best and loss < best:
                    best, keep_best = loss, loss > 1.0
            return best

        def train_checked(p, n):
            best = float("inf")
            for _ in range(n):
                p, loss = step(p)
                if p is not None and loss < best:
                    best = loss
            return best
    """))
    # a flag the loop rebinds, or a test that is not a flag, makes the comparison run on some steps only
    assert codes(found) == ["JNP102"]


def test_every_n_block_repeats_an_upload_but_not_a_sync(lint_source):
    """An upload of unchanged data every N steps repeats (hoisting it is the fix); a conversion every
    N steps is the fix of JNP101-JNP103; a remainder of a counter the loop does not step says nothing."""
    found = lint_source(source("""
        def train(p, offset):
            host = np.ones(3, dtype=np.float32)
            for step in range(1000):
                p, loss = step_fn(p)
                if step % 100 == 0:
                    p = p + jnp.asarray(host)
                    print(float(loss))
                if offset % 2 == 0:
                    p = p + jnp.asarray(host)
    """))
    assert found == [(14, "JNP104")]
