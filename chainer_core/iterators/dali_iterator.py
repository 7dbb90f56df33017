"""DaliIterator: mini-batches from an NVIDIA DALI pipeline."""
import importlib.util

from backend_api.errors import DeviceSpecError, PluginError
from chainer_core.dataset.iterator import Iterator


def _missing_requirements():
    """What DALI iteration lacks here: DALI itself, a CUDA device."""
    missing = []
    try:
        found = importlib.util.find_spec('nvidia.dali') is not None
    except ImportError:  # no ``nvidia`` package at all
        found = False
    if not found:
        missing.append('NVIDIA DALI (the nvidia-dali-cudaXXX package)')
    from chainer_core.backend import get_device
    try:
        get_device('@cupy:0')
    except (DeviceSpecError, PluginError) as e:
        missing.append('a CUDA device through the chainer-cuda plugin '
                       '({})'.format(e))
    return missing


class DaliIterator(Iterator):
    """Iterate over the batches an NVIDIA DALI pipeline produces.

    Each batch is what ``pipeline.run()`` returns (DALI's tensor lists on
    the GPU); a converter turns them into arrays. The pipeline is built at
    the first batch, and its reader's ``epoch_size()`` sets the epoch
    length.

    DALI pipelines run on CUDA GPUs: this iterator needs the ``nvidia.dali``
    package and a CUDA device served by the chainer-cuda plugin, and
    raises :class:`RuntimeError` naming what is missing otherwise.

    Args:
        pipeline: the DALI pipeline (``nvidia.dali.Pipeline``).
        repeat (bool): loop over epochs forever (else stop after one).

    Example:
        >>> it = DaliIterator(pipeline)  # doctest: +SKIP
        >>> outputs = it.next()  # doctest: +SKIP
    """

    def __init__(self, pipeline, repeat=True):
        missing = _missing_requirements()
        if missing:
            raise RuntimeError('DaliIterator needs {}'.format(
                ' and '.join(missing)))
        self.pipeline = pipeline
        self._repeat = repeat
        self._built = False
        self.epoch_size = None
        self.reset()

    def __next__(self):
        if not self._built:
            self.pipeline.build()
            self._built = True
            sizes = set(self.pipeline.epoch_size().values())
            if len(sizes) != 1:
                raise ValueError(
                    'DaliIterator: the readers of the pipeline must agree on '
                    'one epoch size, got {}'.format(sorted(sizes)))
            self.epoch_size, = sizes
        if not self._repeat and self.epoch > 0:
            raise StopIteration
        self._previous_epoch_detail = self.epoch_detail
        end = self.current_position + self.batch_size
        if end >= self.epoch_size:
            self.current_position = end - self.epoch_size \
                if self._repeat else 0
            self.epoch += 1
            self.is_new_epoch = True
        else:
            self.current_position = end
            self.is_new_epoch = False
        return self.pipeline.run()

    @property
    def batch_size(self):
        """The pipeline's batch size."""
        return self.pipeline.batch_size

    @property
    def repeat(self):
        return self._repeat

    @property
    def epoch_detail(self):
        """The fractional epoch count (the epoch count until the pipeline
        is built and its size known)."""
        if not self.epoch_size:
            return float(self.epoch)
        return self.epoch + self.current_position / self.epoch_size

    @property
    def previous_epoch_detail(self):
        """``epoch_detail`` before the last batch (None before the first)."""
        if self._previous_epoch_detail < 0:
            return None
        return self._previous_epoch_detail

    def reset(self):
        """Go back to the start of the first epoch."""
        self.current_position = 0
        self.epoch = 0
        self.is_new_epoch = False
        self._previous_epoch_detail = -1.

    def serialize(self, serializer):
        self.current_position = serializer('current_position',
                                           self.current_position)
        self.epoch = serializer('epoch', self.epoch)
        self.is_new_epoch = serializer('is_new_epoch', self.is_new_epoch)
        self._previous_epoch_detail = serializer(
            'previous_epoch_detail', self._previous_epoch_detail)
