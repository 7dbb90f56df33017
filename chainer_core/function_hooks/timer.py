"""TimerHook: wall-clock time of every function node."""
import sys

from chainer_core import function_hook
from chainer_core.function_hooks import _report


class TimerHook(function_hook.FunctionHook):
    """Measure the time spent in the forward and backward computation of
    each function node.

    Work queued on an asynchronous device (a GPU) is waited for at both
    ends of each interval, so the times are those of the computation.
    Nested calls (a node whose forward applies other nodes) are recorded
    each; :meth:`total_time` counts only the outermost ones.

    Attributes:
        call_history (list): ``(function name, seconds)`` per call.
    """

    name = 'TimerHook'
    table = _report.TIME_UNITS

    def __init__(self):
        self._watch = _report.Stopwatch()

    @property
    def call_history(self):
        return self._watch.call_history

    def forward_preprocess(self, function, in_data):
        self._watch.start(in_data)

    def forward_postprocess(self, function, in_data):
        self._watch.stop(_report.function_name(function), in_data)

    def backward_preprocess(self, function, in_data, out_grad):
        self._watch.start(tuple(in_data) + tuple(out_grad))

    def backward_postprocess(self, function, in_data, out_grad):
        self._watch.stop(_report.function_name(function),
                         tuple(in_data) + tuple(out_grad))

    def total_time(self):
        """Seconds spent in the outermost function calls."""
        return self._watch.total_time()

    def summary(self):
        """``{function name: {'elapsed_time': seconds, 'occurrence':
        count}}`` in order of first call."""
        return self._watch.summary()

    def print_report(self, unit='auto', file=sys.stdout):
        """Print the summary as a table.

        Args:
            unit (str): 'sec', 'ms', 'us' or 'ns'; 'auto' for the unit that
                suits the largest time, 'auto_foreach' for each row's own.
            file: where to write.
        """
        _report.time_report('FunctionName', self.summary(), unit, file)
