"""ProgressBar: a live progress bar with speed and ETA."""
import datetime
import sys
import time

from chainer_core.training import extension


class ProgressBar(extension.Extension):
    """Show training progress: the whole run, the current epoch, the
    iteration count, iterations per second and the estimated time left.

    Args:
        training_length (tuple): ``(length, unit)``; read from the
            trainer's stop trigger when None.
        update_interval (int): redraw every this many iterations.
        bar_length (int): characters of each bar.
        out: the stream (a terminal redraws in place).
    """

    trigger = 1, 'iteration'
    priority = extension.PRIORITY_READER

    def __init__(self, training_length=None, update_interval=100,
                 bar_length=50, out=sys.stdout):
        self._training_length = training_length
        self._update_interval = update_interval
        self._bar_length = bar_length
        self._out = out
        self._recent = []
        self._lines = 0

    def initialize(self, trainer):
        if self._training_length is None:
            get_length = getattr(trainer.stop_trigger,
                                 'get_training_length', None)
            if get_length is None:
                raise ValueError('ProgressBar needs training_length when '
                                 'the stop trigger does not tell it')
            self._training_length = get_length()

    def __call__(self, trainer):
        updater = trainer.updater
        iteration = updater.iteration
        now = time.time()
        self._recent.append((now, iteration))
        if len(self._recent) > 10:
            del self._recent[0]
        if iteration % self._update_interval == 0:
            self._draw(updater, iteration, now)

    def _bar(self, fraction):
        fraction = min(max(fraction, 0.0), 1.0)
        filled = int(self._bar_length * fraction)
        return '[{}{}] {:6.2%}'.format('#' * filled,
                                      '.' * (self._bar_length - filled),
                                      fraction)

    def _draw(self, updater, iteration, now):
        length, unit = self._training_length
        epoch_detail = updater.epoch_detail
        done = (iteration if unit == 'iteration' else epoch_detail) / length
        lines = ['     total ' + self._bar(done)]
        if unit == 'epoch':
            lines.append('this epoch ' + self._bar(epoch_detail % 1.0))
        lines.append('{:10} iter, {} epoch / {} {}s'.format(
            iteration, updater.epoch, length, unit))
        (t0, i0), (t1, i1) = self._recent[0], self._recent[-1]
        if t1 > t0 and i1 > i0:
            speed = (i1 - i0) / (t1 - t0)
            if unit == 'iteration':
                left = (length - iteration) / speed
            else:
                per_epoch = iteration / max(epoch_detail, 1e-12)
                left = (length - epoch_detail) * per_epoch / speed
            lines.append('{:10.5g} iters/sec. Estimated time to finish: '
                         '{}.'.format(speed, datetime.timedelta(
                             seconds=max(left, 0.0))))
        else:
            lines.append('{:>10} iters/sec. Estimated time to finish: '
                         'unknown.'.format('-'))
        out = self._out
        if self._lines and getattr(out, 'isatty', lambda: False)():
            out.write('\033[{}A\033[J'.format(self._lines))
        out.write('\n'.join(lines) + '\n')
        self._lines = len(lines)
        if hasattr(out, 'flush'):
            out.flush()

    def finalize(self):
        out = self._out
        if self._lines and getattr(out, 'isatty', lambda: False)():
            out.write('\033[{}A\033[J'.format(self._lines))
            if hasattr(out, 'flush'):
                out.flush()
        self._lines = 0
