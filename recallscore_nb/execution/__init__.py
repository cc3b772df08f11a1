"""The execution layer: how the core's pure scoring runs on a machine. The worker processes
forked beside the main one, the memo of scores carried from chunk to chunk, the streaming
scorer that reads an attempts file a chunk at a time and writes its table as it goes, the
scorers a command loads (a benchmark, or an items file, with an optional scoring schema), the
Dask engine, building a scored report and checking a stored one against its inputs
(:mod:`~recallscore_nb.execution.reports`), the choice of Arrow's allocator and the pause of
Python's collector belong here.
A module here imports ``core`` and ``io``: it decides where and when the core's functions run,
never what they compute, so every path it offers gives the rows the core gives.
"""
