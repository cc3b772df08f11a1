"""The workbook: where it lives, the notebooks' parameters, the session a notebook opens (its
typed parameters, its inputs, the signatures and files of its outputs), the runner that
executes notebooks with papermill, and the publishing of their outputs belong here. A
notebook's cells compute by calling the package's public functions (``core``, ``io``,
``analysis``, ``render``) and write through their session; a module here may import every
layer but ``cli``.
"""
