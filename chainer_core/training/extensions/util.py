"""Helpers of the extensions (Chainer's ``chainer.training.extensions.util``).

:class:`ProgressBar` is the base of text progress displays redrawn in
place on a terminal: a subclass says what to show in :meth:`get_lines`.
"""
import collections
import sys
import time


class ProgressBar:
    """A block of lines redrawn in place, with a speed meter.

    Args:
        bar_length (int): characters of a bar, for subclasses drawing bars
            (50 when None).
        out: the text stream written to (``sys.stdout`` when None).

    Example:
        >>> import io
        >>> class Counter(ProgressBar):
        ...     def __init__(self, out):
        ...         super().__init__(out=out)
        ...         self.n = 0
        ...     def get_lines(self):
        ...         return ['{} done\\n'.format(self.n)]
        >>> out = io.StringIO()
        >>> bar = Counter(out)
        >>> bar.n = 3
        >>> bar.update()
        >>> out.getvalue()
        '\\x1b[J3 done\\n\\x1b[1A'
    """

    #: How many recent (iteration, epoch, time) points the speed uses.
    _TIMING_WINDOW = 100

    def __init__(self, bar_length=None, out=None):
        self._bar_length = 50 if bar_length is None else bar_length
        self._out = sys.stdout if out is None else out
        self._recent_timing = collections.deque(maxlen=self._TIMING_WINDOW)

    def update_speed(self, iteration, epoch_detail):
        """Record a point of progress and measure the speed since the
        oldest recorded one.

        Args:
            iteration (int): the iteration count now.
            epoch_detail (float): the (fractional) epoch count now.

        Returns:
            tuple: iterations per second and epochs per second (both
            ``inf`` while no time has passed since the oldest point).
        """
        now = time.time()
        self._recent_timing.append((iteration, epoch_detail, now))
        old_iteration, old_epoch, old_time = self._recent_timing[0]
        span = now - old_time
        if span == 0:
            return float('inf'), float('inf')
        return ((iteration - old_iteration) / span,
                (epoch_detail - old_epoch) / span)

    def get_lines(self):
        """The lines to show, each ending with a newline."""
        raise NotImplementedError

    def update(self):
        """Show :meth:`get_lines` over what was shown before, leaving the
        cursor at the top of the block for the next redraw."""
        self.erase_console()
        lines = self.get_lines()
        for line in lines:
            self._out.write(line)
        self.move_cursor_up(len(lines))
        self.flush()

    def close(self):
        """Erase the block."""
        self.erase_console()
        self.flush()

    def erase_console(self):
        """Clear from the cursor to the end of the screen."""
        self._out.write('\033[J')

    def move_cursor_up(self, n):
        """Move the cursor ``n`` lines up (to redraw over them)."""
        self._out.write('\033[{:d}A'.format(n))

    def flush(self):
        """Flush the stream."""
        self._out.flush()
