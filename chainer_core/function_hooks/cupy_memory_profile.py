"""CupyMemoryProfileHook: GPU memory taken by every function node."""
import sys

from chainer_core import function_hook
from chainer_core.function_hooks import _report

_SIZE_UNITS = ('B', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB')


def _memory_counter():
    """A CuPy memory hook counting the bytes handed out by the memory pool
    (``used``) and those the pool took from the GPU (``acquired``)."""
    try:
        from cupy.cuda import memory_hook
    except ImportError as e:
        raise RuntimeError(
            'CupyMemoryProfileHook measures the memory of CuPy\'s memory '
            'pool and needs CuPy, which cannot be imported here ({}); '
            'install chainer-cuda (with CuPy) on a machine with a CUDA GPU'
            .format(e)) from e

    class Counter(memory_hook.MemoryHook):
        name = 'ChainerCoreMemoryCounter'

        def __init__(self):
            self.used_bytes = 0
            self.acquired_bytes = 0

        def alloc_preprocess(self, **kwargs):
            self.acquired_bytes += kwargs['mem_size']

        def malloc_preprocess(self, **kwargs):
            self.used_bytes += kwargs['mem_size']

    return Counter()


class CupyMemoryProfileHook(function_hook.FunctionHook):
    """Measure the GPU memory each function node takes from CuPy's memory
    pool (used bytes) and the pool from the GPU (acquired bytes).

    Needs CuPy: constructing it without CuPy raises :class:`RuntimeError`.

    Attributes:
        call_history (list): ``(function name, used bytes, acquired bytes,
            depth)`` per call.
    """

    name = 'CupyMemoryProfileHook'

    def __init__(self):
        self._counter = _memory_counter()
        self.call_history = []
        self._running = []
        self._total_used_bytes = 0
        self._total_acquired_bytes = 0

    def added(self, function=None):
        self._counter.__enter__()

    def deleted(self, function=None):
        self._counter.__exit__()

    def _start(self):
        self._running.append((self._counter.used_bytes,
                              self._counter.acquired_bytes))

    def _stop(self, function):
        used0, acquired0 = self._running.pop()
        used = self._counter.used_bytes - used0
        acquired = self._counter.acquired_bytes - acquired0
        depth = len(self._running)
        self.call_history.append((_report.function_name(function), used,
                                  acquired, depth))
        if depth == 0:
            self._total_used_bytes += used
            self._total_acquired_bytes += acquired

    def forward_preprocess(self, function, in_data):
        self._start()

    def forward_postprocess(self, function, in_data):
        self._stop(function)

    def backward_preprocess(self, function, in_data, out_grad):
        self._start()

    def backward_postprocess(self, function, in_data, out_grad):
        self._stop(function)

    def total_used_bytes(self):
        """Bytes handed out by the memory pool to the outermost calls."""
        return self._total_used_bytes

    def total_acquired_bytes(self):
        """Bytes the memory pool took from the GPU during the outermost
        calls."""
        return self._total_acquired_bytes

    def summary(self):
        """``{function name: {'used_bytes', 'acquired_bytes',
        'occurrence'}}`` in order of first call."""
        summary = {}
        for name, used, acquired, depth in self.call_history:
            record = summary.setdefault(
                name, {'used_bytes': 0, 'acquired_bytes': 0,
                       'occurrence': 0})
            record['used_bytes'] += used
            record['acquired_bytes'] += acquired
            record['occurrence'] += 1
        return summary

    def _format_size(self, size, unit):
        if unit == 'auto':
            for unit in _SIZE_UNITS[:-1]:
                if abs(size) < 1024:
                    break
                size /= 1024.0
            else:
                unit = _SIZE_UNITS[-1]
            return '{:.2f}{}'.format(size, unit)
        if unit not in _SIZE_UNITS:
            raise ValueError("unit must be 'auto' or one of {}, got {!r}"
                             .format(', '.join(_SIZE_UNITS), unit))
        return '{:.2f}{}'.format(
            size / 1024.0 ** _SIZE_UNITS.index(unit), unit)

    def print_report(self, unit='auto', file=sys.stdout):
        """Print the summary as a table.

        Args:
            unit (str): 'B', 'KB', 'MB', ... or 'auto' to choose per value.
            file: where to write.
        """
        rows = [['FunctionName', 'UsedBytes', 'AcquiredBytes', 'Occurrence']]
        for name, record in self.summary().items():
            rows.append([name, self._format_size(record['used_bytes'], unit),
                         self._format_size(record['acquired_bytes'], unit),
                         str(record['occurrence'])])
        _report.write_table(rows, file)
