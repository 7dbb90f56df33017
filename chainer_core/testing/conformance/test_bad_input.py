"""Bad input on every device: each op must refuse it with a TypeError or
ValueError whose message names the op and the offending argument."""
import re

import pytest

from .bad import BAD, Maker


def _words(words):
    """A pattern matching any of ``words`` as a whole word."""
    return re.compile(r'(?<!\w)(?:{})(?!\w)'.format(
        '|'.join(re.escape(w) for w in words)))


@pytest.mark.parametrize('bad', [b.param() for b in BAD])
def test_bad_input(bad, device):
    with pytest.raises((TypeError, ValueError)) as info:
        bad.call(Maker(device))
    message = str(info.value)
    assert _words(bad.names).search(message), \
        'the message does not name the op ({}): {}'.format(
            ' or '.join(bad.names), message)
    assert _words(bad.args).search(message), \
        'the message does not name the argument ({}): {}'.format(
            ' or '.join(bad.args), message)
