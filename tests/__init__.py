"""The tests of recallscore, one folder per layer of the package (``tests/<layer>/test_<module>.py``)."""
