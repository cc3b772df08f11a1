"""What the exact sums cost: notebook 08's and notebook 05's computations, exact vs. float.

Every published mean, weighted sum and bootstrap mean goes through
:mod:`recallscore_nb.core.exact` (sums exact, rounded once), so that its last bits depend on
no CPU, BLAS kernel, thread count or row order. The baseline, measured in the same run on
the same inputs, is the float arithmetic it replaced: ``weights @ values`` (a BLAS product),
``numpy.bincount`` with weights, ``ndarray.mean`` — swapped in for the exact functions of
``core.exact`` while it is timed (the modules call them as ``exact.<name>``).

    .venv/bin/python benchmarks/bench_exact_sums.py [--rounds 3] [--resamples 2000]

Prints, for each workload, the best of ``--rounds`` wall times of both paths, their ratio,
and how many of the published floats the two paths give differently (last bits).
"""

from __future__ import annotations

import argparse
import contextlib
import time

import numpy as np

import recallscore_nb as rs
from recallscore_nb.core import exact
from recallscore_nb.io.human_sets import read_judged_sets


class _FloatSums:
    """The float path: a product or a bincount, then a float division."""

    def __init__(self, sums: np.ndarray) -> None:
        self.sums = sums

    def ratio(self, denominators=1) -> np.ndarray:
        den = np.broadcast_to(np.asarray(denominators, dtype=float), self.sums.shape)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(den != 0, self.sums / np.where(den != 0, den, 1), np.nan)


def _float_weighted_sums(weights, values, *, groups=None, n_groups=None):
    values = np.asarray(values, dtype=float)
    values = values[:, None] if values.ndim == 1 else values
    if groups is not None:  # per-group sums first, as the code before exact sums did
        values = np.stack([np.bincount(groups, weights=c, minlength=n_groups)
                           for c in values.T], axis=1)
    return _FloatSums(np.asarray(weights, dtype=float) @ values)


def _float_group_sums(values, groups, n_groups):
    values = np.asarray(values, dtype=float)
    values = values[:, None] if values.ndim == 1 else values
    return _FloatSums(np.stack([np.bincount(groups, weights=c, minlength=n_groups)
                                for c in values.T], axis=1))


def _float_means(values, *, axis=0):
    matrix = np.asarray(values, dtype=float)
    return matrix.mean(axis=axis) if matrix.shape[axis] else np.full(matrix.shape[1 - axis],
                                                                     np.nan)


def _float_mean(values):
    values = np.asarray(values, dtype=float)
    return float(values.mean()) if len(values) else float("nan")


@contextlib.contextmanager
def float_path():
    """``core.exact``'s functions replaced by the float arithmetic, for the baseline."""
    saved = {name: getattr(exact, name) for name in
             ("weighted_sums", "group_sums", "exact_means", "exact_mean")}
    exact.weighted_sums, exact.group_sums = _float_weighted_sums, _float_group_sums
    exact.exact_means, exact.exact_mean = _float_means, _float_mean
    try:
        yield
    finally:
        for name, function in saved.items():
            setattr(exact, name, function)


def _best(work, rounds: int):
    best, out = float("inf"), None
    for _ in range(rounds):
        start = time.perf_counter()
        out = work()
        best = min(best, time.perf_counter() - start)
    return best, out


def _floats(tables) -> np.ndarray:
    """Every float cell of ``tables``, in order (NaN as NaN)."""
    cells = [t.select_dtypes("float").to_numpy().ravel() for t in tables]
    return np.concatenate(cells) if cells else np.zeros(0)


def _report(name: str, rounds: int, work, tables) -> None:
    exact_time, exact_out = _best(work, rounds)
    with float_path():
        float_time, float_out = _best(work, rounds)
    a, b = _floats(tables(exact_out)), _floats(tables(float_out))
    differ = int((~((a == b) | (np.isnan(a) & np.isnan(b)))).sum())
    print(f"{name}: exact {exact_time:.2f} s, float {float_time:.2f} s, "
          f"ratio {exact_time / float_time:.2f}x; {differ} of {len(a)} floats differ "
          f"in their last bits")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--resamples", type=int, default=2000)
    args = parser.parse_args()
    judged = read_judged_sets("evouna-nq,evouna-tq,openqa-nq301")
    _report("notebook 08, meta_evaluate_sets (3 sets)", args.rounds,
            lambda: rs.meta_evaluate_sets(judged, resamples=args.resamples, seed=0),
            lambda evaluations: [t for e in evaluations.evaluations.values()
                                 for t in e.tables().values()])
    bench = rs.load_benchmark()
    scores = rs.score_with_controls(bench, rs.read_system_attempts(rs.DEFAULT_ATTEMPTS),
                                    rs.load_scoring_schema(benchmark=bench))
    _report("notebook 05, bootstrap_intervals", args.rounds,
            lambda: rs.bootstrap_intervals(scores, resamples=args.resamples, seed=20260916),
            lambda table: [table])


if __name__ == "__main__":
    main()
