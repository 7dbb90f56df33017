import sys
import time


class ProgressHook:
    """A hook for :func:`apply_to_iterator` that reports its progress.

    After each batch it writes the number of examples processed so far
    (out of ``n_total`` when known) and the throughput to standard error,
    overwriting its previous line.

    Args:
        n_total (int): The number of examples in all, or :obj:`None`.

    .. admonition:: Example

        >>> in_values, out_values, rest_values = apply_to_iterator(
        ...     model.predict, it, hook=ProgressHook(len(dataset)))
    """

    def __init__(self, n_total=None):
        self.n_total = n_total
        self.n_processed = 0
        self.start = time.time()

    def __call__(self, in_values, out_values, rest_values):
        self.n_processed += len(in_values[0])
        rate = self.n_processed / max(time.time() - self.start, 1e-9)
        if self.n_total is None:
            done = '{:d} samples'.format(self.n_processed)
        else:
            done = '{:d} of {:d} samples'.format(self.n_processed,
                                                self.n_total)
        sys.stderr.write('\r{}, {:.2f} samples/sec'.format(done, rate))
        sys.stderr.flush()
