"""Computations over scored tables: reproducing a benchmark's labels, agreement between the
rules, the normalization ablation, bootstrap statistics, perturbed variants, summaries of a
scored file, the official SQuAD scripts' numbers and the catalogue's frames belong here. A
module here imports only ``core`` and ``io``; it returns DataFrames, dicts and numbers, and
writes no file and draws nothing: the caller (a chapter, a command's handler) renders and
writes what it returns.
"""
