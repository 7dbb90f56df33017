"""Shared parts of the profiling hooks: names, clocks and report tables."""
import time

import numpy

from chainer_core._runtime.host import host


def function_name(function):
    """The name a profile lists a function node under: its implementation
    class (an old-style Function's own class, not its adapter's)."""
    return getattr(function, '_impl_name', None) or type(function).__name__


def synchronize(arrays):
    """Wait for the devices of ``arrays`` (other than NumPy's) so that a
    clock reading covers the work queued on them."""
    seen = set()
    for a in arrays:
        if a is None or type(a) is numpy.ndarray or not hasattr(a, 'shape'):
            continue
        try:
            device = host.device_from_array(a)
        except TypeError:
            continue
        if device.name not in seen:
            seen.add(device.name)
            device.synchronize()


class Stopwatch:
    """Nested timings: a total of the outermost intervals, and one
    ``(name, seconds)`` record per interval."""

    def __init__(self):
        self.call_history = []
        self._running = []
        self._total_time = 0.0

    def start(self, arrays):
        synchronize(arrays)
        self._running.append(time.perf_counter())

    def stop(self, name, arrays):
        synchronize(arrays)
        elapsed = time.perf_counter() - self._running.pop()
        self.call_history.append((name, elapsed))
        if not self._running:
            self._total_time += elapsed

    def total_time(self):
        return self._total_time

    def summary(self):
        summary = {}
        for name, elapsed in self.call_history:
            record = summary.setdefault(
                name, {'elapsed_time': 0.0, 'occurrence': 0})
            record['elapsed_time'] += elapsed
            record['occurrence'] += 1
        return summary


TIME_UNITS = {'sec': 1, 'ms': 10 ** 3, 'us': 10 ** 6, 'ns': 10 ** 9}


def _time_unit_of(seconds):
    """The largest unit in which ``seconds`` is at least 1."""
    for unit in ('sec', 'ms', 'us'):
        if seconds * TIME_UNITS[unit] >= 1:
            return unit
    return 'ns'


def format_times(times, unit):
    """Each of ``times`` (seconds) as text: in ``unit``, in the unit of the
    largest ('auto'), or each in its own unit ('auto_foreach')."""
    if unit == 'auto':
        unit = _time_unit_of(max(times, default=0))
    elif unit != 'auto_foreach' and unit not in TIME_UNITS:
        raise ValueError(
            "unit must be 'auto', 'auto_foreach' or one of {}, got {!r}"
            .format(', '.join(sorted(TIME_UNITS)), unit))
    out = []
    for seconds in times:
        u = _time_unit_of(seconds) if unit == 'auto_foreach' else unit
        out.append('{:3.2f}{}'.format(seconds * TIME_UNITS[u], u))
    return out


def time_report(header, summary, unit, file):
    """Write a summary of elapsed times as a table under ``header``."""
    names = list(summary)
    times = format_times([summary[n]['elapsed_time'] for n in names], unit)
    rows = [[header, 'ElapsedTime', 'Occurrence']]
    for name, elapsed in zip(names, times):
        rows.append([name, elapsed, str(summary[name]['occurrence'])])
    write_table(rows, file)


def write_table(rows, file):
    """Write rows of strings as right-aligned columns."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        file.write('  '.join(cell.rjust(w) for cell, w in zip(row, widths)))
        file.write('\n')
    if hasattr(file, 'flush'):
        file.flush()
