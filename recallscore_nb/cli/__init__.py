"""The ``recallscore`` command line: argument parsing (:mod:`.main`) and one handler per command
(:mod:`.handlers`).

The parser only parses, then makes one call: a handler loads, computes, writes and returns
the lines to print. ``python -m recallscore_nb`` (the package's ``__main__``) runs the same
command line. A module here may import every layer.
"""
