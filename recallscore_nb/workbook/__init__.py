"""The workbook: the notebooks' sessions, the runner that executes them with papermill, the
publishing of their outputs, where the workbook lives, and one chapter per notebook.

A notebook calls ``chapter.start(globals())`` and then one chapter step per cell; a step
computes with ``core`` and ``analysis``, draws with ``render``, and writes through the
session (``io``). A module here may import every layer but ``cli``.
"""
