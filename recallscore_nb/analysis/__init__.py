"""Computations over scored tables: reproducing a benchmark's labels, agreement between the
rules, the normalization ablation, bootstrap statistics, the negative controls, perturbed
variants, summaries of a scored file, the official SQuAD scripts' numbers, the catalogue's
frames, every table a notebook shows and the numbers the paper quotes belong here. A module
here imports only ``core`` and ``io``; it returns DataFrames, dicts and numbers, and writes no
file and draws nothing: the caller (a notebook's cell, a command's handler) renders and writes
what it returns.
"""
