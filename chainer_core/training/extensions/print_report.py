"""PrintReport: print LogReport's entries as a table."""
import sys

from chainer_core.training import extension
from chainer_core.training.extensions import log_report as log_report_module


def _isatty(out):
    try:
        return bool(out.isatty())
    except (AttributeError, ValueError):
        return False


class PrintReport(extension.Extension):
    """Print the entries of a :class:`LogReport` as table rows: a header
    with the keys at the first call, then one row per new log entry
    (numbers in ``g`` format, a blank cell for a key the entry lacks).

    Args:
        entries (list of str): the keys to show, as columns (each at least
            10 characters wide).
        log_report (str or LogReport): the log to read: the name of a
            LogReport extension of the trainer, or a LogReport object,
            which this extension then calls itself each iteration.
        out: the stream to print to. On a terminal each row first clears
            what is below the cursor (a progress bar drawn there).
    """

    def __init__(self, entries, log_report='LogReport', out=sys.stdout):
        if isinstance(entries, str):
            entries = [entries]
        if not isinstance(log_report, (str, log_report_module.LogReport)):
            raise TypeError('PrintReport: log_report must be a LogReport or '
                            'the name of one, got {}'.format(
                                type(log_report).__name__))
        self._entries = list(entries)
        self._log_report = log_report
        self._log_len = 0
        self._out = out
        self._widths = [max(10, len(e)) for e in self._entries]
        self._header = '  '.join(
            '{:<{}}'.format(e, w)
            for e, w in zip(self._entries, self._widths)).rstrip() + '\n'

    def __call__(self, trainer):
        out = self._out
        if self._header:
            out.write(self._header)
            self._header = None
        log_report = self._log_report
        if isinstance(log_report, str):
            log_report = trainer.get_extension(log_report)
        else:
            log_report(trainer)
        log = log_report.log
        tty = _isatty(out)
        while len(log) > self._log_len:
            if tty:
                out.write('\033[J')
            out.write(self._row(log[self._log_len]))
            self._log_len += 1
        if hasattr(out, 'flush'):
            out.flush()

    def _row(self, entry):
        cells = []
        for key, width in zip(self._entries, self._widths):
            value = entry.get(key)
            if value is None:
                text = ''
            elif isinstance(value, (int, float)) and \
                    not isinstance(value, bool):
                text = '{:g}'.format(value)
            else:
                text = str(value)
            cells.append('{:<{}}'.format(text, width))
        return '  '.join(cells).rstrip() + '\n'

    def serialize(self, serializer):
        log_report = self._log_report
        if isinstance(log_report, log_report_module.LogReport):
            log_report.serialize(serializer['_log_report'])
        # A resumed run prints the rows it had not printed yet, not the
        # whole restored log again.
        self._log_len = int(serializer('_log_len', self._log_len))
