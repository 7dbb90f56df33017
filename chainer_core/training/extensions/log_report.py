"""LogReport: average reported values and append them to a JSON log."""
import json
import os
import warnings

from chainer_core import reporter
from chainer_core import serializer as serializer_module
from chainer_core.training import extension
from chainer_core.training.extensions import _util
from chainer_core.training import triggers as trigger_module


class LogReport(extension.Extension):
    """Accumulate observations every iteration; at each ``trigger``, append
    their means (plus epoch, iteration, elapsed_time) to :attr:`log` and
    write the whole log as JSON to ``<out>/<filename>``.

    Args:
        keys (list of str): keys to log (None: all).
        trigger: when to emit an entry (default: every epoch).
        postprocess: ``f(entry)`` called on each entry before it is stored.
        filename (str): log file name, formatted with the entry's values
            (default ``'log'``; the older keyword ``log_name=None`` writes
            no file). The file is replaced atomically at each entry.
    """

    def __init__(self, keys=None, trigger=(1, 'epoch'), postprocess=None,
                 filename=None, **kwargs):
        self._keys = keys
        self._trigger = trigger_module.get_trigger(trigger)
        self._postprocess = postprocess
        self._log = []
        log_name = kwargs.pop('log_name', 'log')
        if kwargs:
            raise TypeError('LogReport: unexpected arguments {}'.format(
                sorted(kwargs)))
        self._log_name = filename if filename is not None else log_name
        self._init_summary()

    def __call__(self, trainer):
        observation = trainer.observation
        if self._keys is None:
            self._summary.add(observation)
        else:
            self._summary.add({k: observation[k] for k in self._keys
                               if k in observation})
        if not self._trigger(trainer):
            return
        stats = {name: float(value)
                 for name, value in self._summary.compute_mean().items()}
        updater = trainer.updater
        stats['epoch'] = updater.epoch
        stats['iteration'] = updater.iteration
        stats['elapsed_time'] = trainer.elapsed_time
        if self._postprocess is not None:
            self._postprocess(stats)
        self._log.append(stats)
        if self._log_name is not None:
            self._write(os.path.join(trainer.out,
                                     self._log_name.format(**stats)))
        self._init_summary()

    def _write(self, path):
        _util.replace_atomic(
            path, lambda f: json.dump(self._log, f, indent=4))

    @property
    def log(self):
        """The list of emitted entries (dicts)."""
        return self._log

    def _init_summary(self):
        self._summary = reporter.DictSummary()

    def serialize(self, serializer):
        if hasattr(self._trigger, 'serialize'):
            self._trigger.serialize(serializer['_trigger'])
        try:
            self._summary.serialize(serializer['_summary'])
        except KeyError:
            warnings.warn('LogReport: the snapshot holds no statistics of '
                          'the current interval; they start afresh')
        # JSON keeps every float exactly (repr round-trips).
        if isinstance(serializer, serializer_module.Deserializer):
            self._log = json.loads(str(serializer('_log', '')) or '[]')
        else:
            serializer('_log', json.dumps(self._log))
