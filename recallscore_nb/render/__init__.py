"""Tables as CSV, Markdown and LaTeX text, and every figure.

Text builders (:mod:`.tables`), the shipped style applied only while the package draws, and
figures rendered to PNG, PDF and SVG bytes the same on every run (:mod:`.figures`), and every
``plot_*`` function (:mod:`.plots`), which draws on the axes it is given and returns the
artists. A module here imports only ``core``: it produces text and bytes, and the caller
writes them through ``io`` (one writer per output family).
"""
