"""Reference implementations the package is checked against: the per-row rules as the official
scripts and the protocol state them (:mod:`.reference_rules`) and a port of the official SQuAD
evaluation scripts (:mod:`.squad_official_port`). Standard library only, no import of
``recallscore_nb``: the independent side of every parity test.
"""
