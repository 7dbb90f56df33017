"""EarlyStoppingTrigger: stop when a monitored value stops improving."""
import operator
import warnings

from chainer_core import reporter


class EarlyStoppingTrigger:
    """A stop trigger that fires when ``monitor`` has not improved for
    ``patience`` checks in a row, or when ``max_trigger`` fires.

    At each ``check_trigger`` interval the mean of ``monitor`` over the
    interval is compared with the best so far; a better value resets the
    count, any other adds one.

    Args:
        check_trigger: the checking interval (default every epoch).
        monitor (str): the observed key (default ``'main/loss'``).
        patience (int): checks without improvement before stopping
            (default 3; ``patients`` is an accepted older spelling).
        mode (str): ``'max'``, ``'min'`` or ``'auto'`` (max when the key
            contains ``'accuracy'``, else min).
        verbose (bool): print the comparison and when it stops.
        max_trigger: stop anyway when this fires (default 100 epochs).
    """

    def __init__(self, check_trigger=(1, 'epoch'), monitor='main/loss',
                 patience=None, mode='auto', verbose=False,
                 max_trigger=(100, 'epoch'), **kwargs):
        from chainer_core.training.util import get_trigger
        patients = kwargs.pop('patients', None)
        if kwargs:
            raise TypeError('EarlyStoppingTrigger: unexpected arguments {}'
                            .format(sorted(kwargs)))
        if patients is not None:
            if patience is not None:
                raise TypeError('EarlyStoppingTrigger: give patience or its '
                                'older spelling patients, not both')
            patience = patients
        if patience is None:
            patience = 3
        if mode not in ('max', 'min', 'auto'):
            raise ValueError("EarlyStoppingTrigger: mode must be 'max', "
                             "'min' or 'auto', got {!r}".format(mode))
        self.count = 0
        self.patience = patience
        self.monitor = monitor
        self.verbose = verbose
        self._max_trigger = get_trigger(max_trigger)
        self._interval_trigger = get_trigger(check_trigger)
        if mode == 'auto':
            mode = 'max' if 'accuracy' in monitor else 'min'
        self._compare = operator.gt if mode == 'max' else operator.lt
        self.best = float('-inf') if mode == 'max' else float('inf')
        if verbose:
            print('early stopping: {} is better'.format(
                'greater' if mode == 'max' else 'less'))
        self._init_summary()

    def __call__(self, trainer):
        observation = trainer.observation
        if self.monitor in observation:
            self._summary.add({self.monitor: observation[self.monitor]})
        if self._max_trigger(trainer):
            return True
        if not self._interval_trigger(trainer):
            return False
        stats = self._summary.compute_mean()
        if self.monitor not in stats:
            warnings.warn('EarlyStoppingTrigger: {} was not reported in the '
                          'last interval'.format(self.monitor))
            return False
        current = float(stats[self.monitor])
        self._init_summary()
        if self.verbose:
            print('early stopping: count {}, best {}, current {}'.format(
                self.count, self.best, current))
        if self._compare(current, self.best):
            self.best = current
            self.count = 0
        else:
            self.count += 1
        if self.count >= self.patience:
            if self.verbose:
                print('early stopping at epoch {}'.format(
                    trainer.updater.epoch))
            return True
        return False

    def _init_summary(self):
        self._summary = reporter.DictSummary()

    def get_training_length(self):
        return self._max_trigger.get_training_length()

    def serialize(self, serializer):
        if hasattr(self._max_trigger, 'serialize'):
            self._max_trigger.serialize(serializer['max_trigger'])
        if hasattr(self._interval_trigger, 'serialize'):
            self._interval_trigger.serialize(serializer['interval_trigger'])
        self._summary.serialize(serializer['summary'])
        self.count = int(serializer('count', self.count))
        self.best = float(serializer('best', self.best))
