"""extensions.util.ProgressBar: the in-place display base, its control
sequences and speed meter."""
import io
import sys

import pytest

from chainer_core.training.extensions import util


class _Lines(util.ProgressBar):
    def __init__(self, lines, **kwargs):
        super().__init__(**kwargs)
        self.lines = lines

    def get_lines(self):
        return self.lines


def test_update_redraws_in_place():
    out = io.StringIO()
    bar = _Lines(['one\n', 'two\n'], out=out)
    bar.update()
    assert out.getvalue() == '\x1b[Jone\ntwo\n\x1b[2A'
    bar.lines = ['three\n']
    bar.update()
    bar.close()
    assert out.getvalue() == ('\x1b[Jone\ntwo\n\x1b[2A'
                              '\x1b[Jthree\n\x1b[1A\x1b[J')


def test_defaults_and_abstract_lines():
    bar = util.ProgressBar()
    assert bar._out is sys.stdout and bar._bar_length == 50
    assert util.ProgressBar(bar_length=20)._bar_length == 20
    with pytest.raises(NotImplementedError):
        bar.get_lines()


def test_update_speed(monkeypatch):
    now = [100.0]
    monkeypatch.setattr(util.time, 'time', lambda: now[0])
    bar = util.ProgressBar(out=io.StringIO())
    assert bar.update_speed(10, 0.5) == (float('inf'), float('inf'))
    now[0] = 102.0
    assert bar.update_speed(30, 1.5) == (10.0, 0.5)
    now[0] = 104.0
    # Measured from the oldest point kept.
    assert bar.update_speed(40, 2.0) == (7.5, 0.375)
