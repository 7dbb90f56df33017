"""ProgressBar: a live progress bar with speed and ETA."""
import collections
import datetime
import sys
import time

from chainer_core.training import extension
from chainer_core.training.extensions.print_report import _isatty


class ProgressBar(extension.Extension):
    """Show training progress: the whole run, the current epoch, the
    iteration count, iterations per second and the estimated time left.

    On a terminal the bar is redrawn in place every ``update_interval``
    iterations (the cursor goes back to its first line, so rows printed by
    :class:`PrintReport` replace it); on any other stream (a file, a pipe)
    each update is one plain line without control sequences.

    Args:
        training_length (tuple): ``(length, unit)``; read from the
            trainer's stop trigger (``get_training_length``) when None.
        update_interval (int): redraw every this many iterations.
        bar_length (int): characters of each bar.
        out: the stream.
    """

    trigger = 1, 'iteration'
    priority = extension.PRIORITY_READER

    def __init__(self, training_length=None, update_interval=100,
                 bar_length=50, out=sys.stdout):
        if update_interval < 1:
            raise ValueError('ProgressBar: update_interval must be at least '
                             '1, got {}'.format(update_interval))
        self._training_length = training_length
        self._update_interval = update_interval
        self._bar_length = bar_length
        self._out = out
        self._recent = collections.deque(maxlen=10)
        self._drawn = False

    def initialize(self, trainer):
        if self._training_length is None:
            get_length = getattr(trainer.stop_trigger,
                                 'get_training_length', None)
            if get_length is None:
                raise TypeError(
                    'ProgressBar: cannot tell the training length from the '
                    'stop trigger {!r}; pass training_length=(length, unit)'
                    .format(trainer.stop_trigger))
            self._training_length = get_length()

    def __call__(self, trainer):
        updater = trainer.updater
        iteration = updater.iteration
        if iteration % self._update_interval:
            return
        now = time.perf_counter()
        self._recent.append((now, iteration))
        if _isatty(self._out):
            self._draw_bars(updater, iteration)
        else:
            self._print_line(updater, iteration)

    def _progress(self, updater, iteration):
        length, unit = self._training_length
        if unit == 'iteration':
            return iteration / length
        return updater.epoch_detail / length

    def _speed_and_eta(self, updater, iteration):
        """Iterations per second over the recent updates and the seconds
        left (None while unknown)."""
        (t0, i0), (t1, i1) = self._recent[0], self._recent[-1]
        if t1 <= t0 or i1 <= i0:
            return None, None
        speed = (i1 - i0) / (t1 - t0)
        length, unit = self._training_length
        if unit == 'iteration':
            left = (length - iteration) / speed
        else:
            epoch_detail = updater.epoch_detail
            if epoch_detail <= 0:
                return speed, None
            iterations_per_epoch = iteration / epoch_detail
            left = (length - epoch_detail) * iterations_per_epoch / speed
        return speed, max(left, 0.0)

    def _bar(self, fraction):
        fraction = min(max(fraction, 0.0), 1.0)
        filled = int(self._bar_length * fraction)
        empty = self._bar_length - filled
        return '[{}{}] {:6.2%}'.format('#' * filled, '.' * empty, fraction)

    def _draw_bars(self, updater, iteration):
        length, unit = self._training_length
        total = self._progress(updater, iteration)
        lines = ['     total ' + self._bar(total)]
        if unit == 'epoch':
            lines.append('this epoch ' + self._bar(updater.epoch_detail % 1))
        lines.append('{:10} iter, {} epoch / {} {}s'.format(
            iteration, updater.epoch, length, unit))
        speed, left = self._speed_and_eta(updater, iteration)
        if speed is None:
            lines.append('{:>10} iters/sec. Estimated time to finish: '
                         'unknown.'.format('-'))
        else:
            lines.append('{:10.5g} iters/sec. Estimated time to finish: '
                         '{}.'.format(speed, _eta(left)))
        out = self._out
        # Clear, draw, and put the cursor back on the first line: the next
        # draw (or any other output) overwrites the bar.
        out.write('\033[J' + '\n'.join(lines) + '\n' +
                  '\033[{}A'.format(len(lines)))
        self._drawn = True
        out.flush()

    def _print_line(self, updater, iteration):
        length, unit = self._training_length
        speed, left = self._speed_and_eta(updater, iteration)
        text = '{} iter, {} epoch / {} {}s, {:.2%} done'.format(
            iteration, updater.epoch, length, unit,
            min(max(self._progress(updater, iteration), 0.0), 1.0))
        if speed is not None:
            text += ', {:.5g} iters/sec, estimated time to finish: {}'.format(
                speed, _eta(left))
        out = self._out
        out.write(text + '\n')
        if hasattr(out, 'flush'):
            out.flush()

    def finalize(self):
        if self._drawn:
            self._out.write('\033[J')
            self._out.flush()
            self._drawn = False


def _eta(seconds):
    if seconds is None:
        return 'unknown'
    return str(datetime.timedelta(seconds=round(seconds)))
