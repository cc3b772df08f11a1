"""Tables as CSV, Markdown and LaTeX text, and every figure: the text builders, the shipped
style applied only while the package draws, figures rendered to PNG, PDF and SVG bytes the same
on every run, and every ``plot_*`` function (drawing on the axes it is given) belong here. A
module here imports only ``core``: it produces text and bytes, and the caller writes them
through ``io``, so each output family has one writer.
"""
