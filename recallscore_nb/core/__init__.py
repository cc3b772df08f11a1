"""The pure core: computation on values, no file I/O and no drawing. Normalization, tokens and
numbers, the vectorized engine, the scoring rules and their registry, facts and partial credit,
fact statuses, the value types (benchmark, items, scoring schema, catalogue), the package's CSV
dialect as text, every exception class of the package, and the forked processes that
score chunks beside the main one (:mod:`.processes`) belong here. A module here opens no
file, reads or writes no path, draws nothing and imports nothing from the other layers: it takes
values and returns values, so it is tested without files.
"""
