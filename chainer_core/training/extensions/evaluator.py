"""Evaluator: the mean of reported values over a validation set."""
import copy
import sys
import time
import warnings

from chainer_core import reporter as reporter_module
from chainer_core.configuration import using_config
from chainer_core.dataset import convert
from chainer_core.dataset.iterator import Iterator
from chainer_core.link import Link
from chainer_core.training import extension


class Evaluator(extension.Extension):
    """Run ``eval_func`` over the whole ``iterator`` with ``train=False``
    and no graph, and report the means of what it reported, prefixed with
    this extension's name (``validation/main/loss``...; no prefix when the
    evaluator is called on its own, outside a trainer).

    Args:
        iterator: an iterator (``repeat=False``) or ``{'main': it, ...}``.
        target: a link or ``{'main': link, ...}``.
        converter: batch to arrays.
        device: where batches go.
        eval_hook: ``f(evaluator)`` called before each evaluation.
        eval_func: the function evaluated (default: the main target).
        progress_bar (bool): print the progress of each evaluation to
            stdout.
    """

    trigger = 1, 'epoch'
    default_name = 'validation'
    priority = extension.PRIORITY_WRITER
    name = None

    def __init__(self, iterator, target, converter=convert.concat_examples,
                 device=None, eval_hook=None, eval_func=None, **kwargs):
        progress_bar = kwargs.pop('progress_bar', False)
        if kwargs:
            raise TypeError('Evaluator: unexpected arguments {}'.format(
                sorted(kwargs)))
        if isinstance(iterator, Iterator):
            iterator = {'main': iterator}
        if not isinstance(iterator, dict) or 'main' not in iterator:
            raise TypeError('Evaluator: iterator must be an Iterator or a '
                            'dict with the key "main", got {!r}'.format(
                                iterator))
        for it in iterator.values():
            if getattr(it, 'repeat', False):
                warnings.warn(
                    'Evaluator: the iterator {!r} repeats (repeat=True): '
                    'an evaluation sweeps it until it stops, so it may '
                    'never end; make it with repeat=False'.format(it),
                    UserWarning)
        self._iterators = iterator
        if isinstance(target, Link):
            target = {'main': target}
        if not isinstance(target, dict) or 'main' not in target:
            raise TypeError('Evaluator: target must be a Link or a dict '
                            'with the key "main", got {!r}'.format(target))
        self._targets = target
        self.converter = converter
        self.device = device
        self.eval_hook = eval_hook
        self.eval_func = eval_func
        self._progress_bar = progress_bar

    def get_iterator(self, name):
        return self._iterators[name]

    def get_all_iterators(self):
        return dict(self._iterators)

    def get_target(self, name):
        return self._targets[name]

    def get_all_targets(self):
        return dict(self._targets)

    def __call__(self, trainer=None):
        reporter = reporter_module.Reporter()
        prefix = '' if self.name is None else self.name + '/'
        for name, target in self._targets.items():
            reporter.add_observer(prefix + name, target)
            reporter.add_observers(prefix + name,
                                   target.namedlinks(skipself=True))
        with reporter:
            with using_config('train', False):
                result = self.evaluate()
        reporter_module.report(result)
        return result

    def evaluate(self):
        """The dict of means of the values reported over the dataset."""
        iterator = self._iterators['main']
        eval_func = self.eval_func or self._targets['main']
        if self.eval_hook:
            self.eval_hook(self)
        if hasattr(iterator, 'reset'):
            iterator.reset()
            it = iterator
        else:
            it = copy.copy(iterator)
        summary = reporter_module.DictSummary()
        progress = _Progress(it) if self._progress_bar else None
        for batch in it:
            observation = {}
            with reporter_module.report_scope(observation):
                in_arrays = self.converter(batch, self.device)
                with using_config('enable_backprop', False):
                    if isinstance(in_arrays, tuple):
                        eval_func(*in_arrays)
                    elif isinstance(in_arrays, dict):
                        eval_func(**in_arrays)
                    else:
                        eval_func(in_arrays)
            summary.add(observation)
            if progress is not None:
                progress.update(len(batch))
        if progress is not None:
            progress.close()
        return summary.compute_mean()

    def finalize(self):
        for it in self._iterators.values():
            it.finalize()


class _Progress:
    """One status line per evaluation: examples done (of the dataset size
    when known) and the speed."""

    def __init__(self, iterator, out=None):
        self._total = None
        dataset = getattr(iterator, 'dataset', None)
        if dataset is not None:
            self._total = len(dataset)
        self._done = 0
        self._out = sys.stdout if out is None else out
        self._start = time.perf_counter()

    def update(self, n):
        self._done += n
        elapsed = max(time.perf_counter() - self._start, 1e-9)
        total = '' if self._total is None else '/{}'.format(self._total)
        self._out.write('\rvalidation: {}{} examples, {:.5g} examples/sec'
                        .format(self._done, total, self._done / elapsed))
        self._out.flush()

    def close(self):
        self._out.write('\n')
        self._out.flush()
