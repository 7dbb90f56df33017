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

    def print_report(self, unit='auto', file=sys.stdout):
        """Print the summary as a table.

        Args:
            unit (str): 'B', 'KB', 'MB', ...; 'auto' for the unit that suits
                the largest size, 'auto_foreach' for each value's own.
            file: where to write.
        """
        summary = self.summary()
        names = list(summary)
        sizes = [summary[n]['used_bytes'] for n in names] + \
            [summary[n]['acquired_bytes'] for n in names]
        texts = _format_sizes(sizes, unit)
        rows = [['FunctionName', 'UsedBytes', 'AcquiredBytes', 'Occurrence']]
        for i, name in enumerate(names):
            rows.append([name, texts[i], texts[len(names) + i],
                         str(summary[name]['occurrence'])])
        _report.write_table(rows, file)


def _size_unit_of(size):
    for i, unit in enumerate(_SIZE_UNITS[:-1]):
        if abs(size) < 1024 ** (i + 1):
            return unit
    return _SIZE_UNITS[-1]


def _format_sizes(sizes, unit):
    """Each of ``sizes`` (bytes) as text: in ``unit``, in the unit of the
    largest ('auto'), or each in its own unit ('auto_foreach')."""
    if unit == 'auto':
        unit = _size_unit_of(max(sizes, key=abs, default=0))
    elif unit != 'auto_foreach' and unit not in _SIZE_UNITS:
        raise ValueError(
            "unit must be 'auto', 'auto_foreach' or one of {}, got {!r}"
            .format(', '.join(_SIZE_UNITS), unit))
    out = []
    for size in sizes:
        u = _size_unit_of(size) if unit == 'auto_foreach' else unit
        out.append('{:.2f}{}'.format(size / 1024.0 ** _SIZE_UNITS.index(u),
                                     u))
    return out
