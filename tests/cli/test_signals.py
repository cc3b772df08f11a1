"""SIGTERM ends any command as Ctrl-C does (issue 22): its cleanup runs, then exit 143, with
nothing printed; the handler before is back afterwards, and an ignored SIGTERM stays ignored.
(A score told to stop mid-stream: tests/execution/test_streaming_signals.py.)"""

from __future__ import annotations

import os
import signal

import pytest

from recallscore_nb.analysis import meta_evaluation
from recallscore_nb.cli.main import main
from recallscore_nb.cli.signals import sigterm_raises
from recallscore_nb.io.data import JUDGED_EXAMPLE as EXAMPLE


@pytest.fixture
def sigterm_noted():
    """SIGTERM noted, not deadly, while the test runs (the command's own handler, when it
    sets one, comes first): the signals that reached this handler."""
    noted: list[int] = []

    def note(signum, frame):
        noted.append(signum)

    previous = signal.signal(signal.SIGTERM, note)
    try:
        yield noted, note
    finally:
        signal.signal(signal.SIGTERM, previous)


def test_sigterm_during_agree_exits_143_writing_and_printing_nothing(capsys, monkeypatch, tmp_path,
                                                                     sigterm_noted):
    noted, note = sigterm_noted
    evaluate = meta_evaluation.meta_evaluate

    def told_to_stop(*args, **kwargs):  # as the computation starts, its inputs read
        os.kill(os.getpid(), signal.SIGTERM)
        return evaluate(*args, **kwargs)

    monkeypatch.setattr(meta_evaluation, "meta_evaluate", told_to_stop)
    code = main(["agree", str(EXAMPLE / "items.jsonl"), "--attempts",
                 str(EXAMPLE / "attempts.csv"), "--judgments", str(EXAMPLE / "judgments.csv"),
                 "--out-dir", str(tmp_path / "out"), "--resamples", "50"])
    out, err = capsys.readouterr()
    assert (code, out, err, noted) == (143, "", "", [])
    assert not (tmp_path / "out").exists()
    assert signal.getsignal(signal.SIGTERM) is note


def test_an_ignored_sigterm_stays_ignored():
    previous = signal.signal(signal.SIGTERM, signal.SIG_IGN)
    try:
        with sigterm_raises():
            os.kill(os.getpid(), signal.SIGTERM)
            assert signal.getsignal(signal.SIGTERM) == signal.SIG_IGN
    finally:
        signal.signal(signal.SIGTERM, previous)
