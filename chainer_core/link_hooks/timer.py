"""TimerHook: wall-clock time of every link's forward."""
import sys

from chainer_core import link_hook
from chainer_core.function_hooks import _report


def _arrays(args):
    out = []
    for a in tuple(args.args) + tuple(args.kwargs.values()):
        out.append(getattr(a, 'array', a))
    return out


class TimerHook(link_hook.LinkHook):
    """Measure the time spent in each link's forward.

    Work queued on an asynchronous device (a GPU) is waited for at both
    ends of each interval. Nested links (a chain calling its children) are
    recorded each; :meth:`total_time` counts only the outermost calls.

    Attributes:
        call_history (list): ``(link class name, seconds)`` per call.
    """

    name = 'TimerHook'
    table = _report.TIME_UNITS

    def __init__(self):
        self._watch = _report.Stopwatch()

    @property
    def call_history(self):
        return self._watch.call_history

    def forward_preprocess(self, args):
        self._watch.start(_arrays(args))

    def forward_postprocess(self, args):
        self._watch.stop(type(args.link).__name__, _arrays(args))

    def total_time(self):
        """Seconds spent in the outermost link calls."""
        return self._watch.total_time()

    def summary(self):
        """``{link class name: {'elapsed_time': seconds, 'occurrence':
        count}}`` in order of first call."""
        return self._watch.summary()

    def print_report(self, unit='auto', file=sys.stdout):
        """Print the summary as a table.

        Args:
            unit (str): 'sec', 'ms', 'us' or 'ns'; 'auto' for the unit that
                suits the largest time, 'auto_foreach' for each row's own.
            file: where to write.
        """
        _report.time_report('LinkName', self.summary(), unit, file)
