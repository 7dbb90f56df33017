"""PrintReport: print LogReport's entries as a table."""
import sys

from chainer_core.training import extension


class PrintReport(extension.Extension):
    """Print the entries of a :class:`LogReport` as table rows.

    Args:
        entries (list of str): the keys to show, as columns.
        log_report (str or LogReport): the log to read (by extension name).
        out: the stream to print to.
    """

    def __init__(self, entries, log_report='LogReport', out=sys.stdout):
        self._entries = list(entries)
        self._log_report = log_report
        self._log_len = 0
        self._out = out
        widths = [max(10, len(e)) for e in self._entries]
        self._header = '  '.join('{:<{}}'.format(e, w)
                                 for e, w in zip(self._entries, widths))
        self._widths = widths

    def __call__(self, trainer):
        log_report = self._log_report
        if isinstance(log_report, str):
            log_report = trainer.get_extension(log_report)
        log = log_report.log
        out = self._out
        if self._header:
            out.write(self._header + '\n')
            self._header = None
        while len(log) > self._log_len:
            entry = log[self._log_len]
            cells = []
            for key, width in zip(self._entries, self._widths):
                value = entry.get(key)
                if value is None:
                    text = ''
                elif isinstance(value, float):
                    text = '{:<{}.6g}'.format(value, width)
                else:
                    text = '{:<{}}'.format(value, width)
                cells.append('{:<{}}'.format(text, width))
            out.write('  '.join(cells).rstrip() + '\n')
            self._log_len += 1
        if hasattr(out, 'flush'):
            out.flush()

    def serialize(self, serializer):
        self._log_len = serializer('_log_len', self._log_len)
