"""The ``recallscore`` command line: argument parsing (:mod:`.main`, which only parses, makes one
call and prints) and one handler per command (:mod:`.handlers`, which loads, computes, writes
and returns the lines to print) belong here; ``python -m recallscore_nb`` runs the same command
line. A module here may import every layer.
"""
