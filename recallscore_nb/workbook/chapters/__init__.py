"""The workbook's chapters: the step functions each notebook calls, one module per notebook.

Every step takes the notebook's :class:`~recallscore_nb.workbook.session.Session`, computes with the
pure modules, writes its table or figure through the session, and returns it for display.
"""
