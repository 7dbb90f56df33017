"""Shared parts of the profiling hooks: names, clocks and report tables."""
import time

import numpy

from backend_api._host import host


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


def format_time(seconds, unit):
    """``seconds`` as text in ``unit`` ('auto': the largest unit in which
    the value is at least 1)."""
    if unit == 'auto':
        unit = 'ns'
        for candidate in ('sec', 'ms', 'us'):
            if seconds * TIME_UNITS[candidate] >= 1:
                unit = candidate
                break
    elif unit not in TIME_UNITS:
        raise ValueError("unit must be 'auto' or one of {}, got {!r}".format(
            ', '.join(sorted(TIME_UNITS)), unit))
    return '{:3.2f}{}'.format(seconds * TIME_UNITS[unit], unit)


def write_table(rows, file):
    """Write rows of strings as right-aligned columns."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        file.write('  '.join(cell.rjust(w) for cell, w in zip(row, widths)))
        file.write('\n')
    if hasattr(file, 'flush'):
        file.flush()
