"""MultithreadIterator: examples loaded by a pool of threads."""
import concurrent.futures

from chainer_core.iterators._prefetch_base import PrefetchIterator


def _load(dataset, indices):
    return [dataset[i] for i in indices]


class MultithreadIterator(PrefetchIterator):
    """Iterate over a dataset, loading the examples of each batch in threads.

    While the caller works on one batch, the next one is loaded. Threads
    help when loading releases the GIL (file reads, image decoding, most
    NumPy work). The batches and their order are exactly those of
    :class:`~chainer_core.iterators.SerialIterator` with the same order
    sampler.

    Args:
        dataset: any indexable with ``len``.
        batch_size (int): examples per batch.
        repeat (bool): loop over epochs forever (else stop after one; the
            last batch may be short).
        shuffle (bool): shuffle each epoch (None: use ``order_sampler``,
            which defaults to shuffling).
        n_threads (int): loading threads.
        order_sampler (OrderSampler): decides each epoch's order.
    """

    def __init__(self, dataset, batch_size, repeat=True, shuffle=None,
                 n_threads=1, order_sampler=None):
        if n_threads < 1:
            raise ValueError('MultithreadIterator: n_threads must be at '
                             'least 1, got {}'.format(n_threads))
        self.n_threads = n_threads
        self._executor = None
        super().__init__(dataset, batch_size, repeat, shuffle, order_sampler,
                         1, 'MultithreadIterator')

    def _submit(self, indices):
        if self._executor is None:
            self._executor = concurrent.futures.ThreadPoolExecutor(
                self.n_threads, thread_name_prefix='MultithreadIterator')
        n_chunks = min(len(indices), self.n_threads) or 1
        bounds = [len(indices) * k // n_chunks for k in range(n_chunks + 1)]
        return [self._executor.submit(_load, self.dataset,
                                      indices[bounds[k]:bounds[k + 1]])
                for k in range(n_chunks)]

    def _collect(self, handle):
        batch = []
        for future in handle:
            batch.extend(future.result())
        return batch

    def _discard(self, handle):
        for future in handle:
            future.cancel()

    def _shutdown(self):
        executor = getattr(self, '_executor', None)
        if executor is not None:
            self._executor = None
            executor.shutdown(wait=True, cancel_futures=True)

    def _detach_loader(self):
        self._executor = None
