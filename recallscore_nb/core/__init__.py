"""The pure core: computation on values, no file I/O and no drawing.

Normalization, tokens and numbers, the vectorized engine, the scoring rules and their
registry, facts and partial credit, fact statuses, the value types (benchmark, items, scoring
schema), and every exception class of the package. A module here opens no file, reads or
writes no path, and imports nothing from the other layers (``io``, ``analysis``, ``render``,
``workbook``, ``cli``); it takes values and returns values, so it is tested without files.
"""
