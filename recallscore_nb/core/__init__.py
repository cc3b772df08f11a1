"""The pure core: computation on values, no file I/O and no drawing. Normalization, tokens and
numbers, the vectorized engine, the scoring rules and their registry, facts and partial credit,
fact statuses, the value types (benchmark, items, scoring schema, catalogue), the package's CSV
dialect as text and every exception class of the package belong here. A module here opens no
file, reads or writes no path, draws nothing, forks, threads and pickles nothing, leaves the
collector alone and imports nothing from the other layers (``tests/test_layers.py`` checks):
it takes values and returns values, so it is tested without files.
"""
