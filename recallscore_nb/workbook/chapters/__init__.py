"""The workbook's chapters: the step functions each notebook calls, one module per notebook.

A chapter's ``start(globals())`` opens the notebook's session (its typed parameters, its
inputs, its signatures). Every other step takes the session and the earlier results it needs
as arguments, computes with ``core`` and ``analysis`` or draws with ``render``, and returns a
value (a DataFrame, a figure, the paper's numbers) that the notebook binds to a name and
shows; writing it is the notebook's own visible call (``nb.save("what", value)``,
``nb.quote(numbers)``). Nothing travels between steps but their arguments.
"""
