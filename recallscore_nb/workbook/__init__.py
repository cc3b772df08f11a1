"""The workbook: where it lives, the notebooks' parameters, the session a notebook opens, the
runner that executes notebooks with papermill, the publishing of their outputs, and one chapter
per notebook (the steps its cells call) belong here. A chapter computes with ``core`` and
``analysis``, draws with ``render`` and writes through its session (``io``); a module here may
import every layer but ``cli``.
"""
