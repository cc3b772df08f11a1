"""The small references the tests of ``recallscore perturb`` draft variants of."""

from recallscore_nb.core.facts import Fact
from recallscore_nb.io.benchmarks import load_benchmark

SHIPPED = load_benchmark()
KITE = (Fact("bird", ("red kite",)), Fact("place", ("mill", "roof")), Fact("time", ("dawn",)))
KITE_REFERENCE = "The red kite nests on the mill roof at dawn."
