"""StandardUpdater: read a batch, convert it, let the optimizer update."""
from chainer_core.dataset import convert
from chainer_core.training.updater import Updater


def _as_dict(value, kind, required):
    """``{'main': value}`` unless ``value`` is already a dict (of any
    names: a GAN's updater holds ``{'gen': ..., 'dis': ...}``).

    Anything with the methods the updater calls is accepted (wrappers such
    as multi-node optimizers need not subclass the core's classes).
    """
    named = dict(value) if isinstance(value, dict) else {'main': value}
    if not named:
        raise ValueError('StandardUpdater: the dict of {}s is empty'.format(
            kind))
    for name, item in named.items():
        missing = [m for m in required if not hasattr(item, m)]
        if missing:
            raise TypeError('StandardUpdater: the {} {!r} ({!r}) lacks {}'
                            .format(kind, name, item, ', '.join(missing)))
    return named


def _lookup(named, name, kind):
    try:
        return named[name]
    except KeyError:
        raise KeyError('StandardUpdater: no {} named {!r}; there are {}'
                       .format(kind, name, sorted(named))) from None


class StandardUpdater(Updater):
    """The default updater.

    Each iteration takes a batch from the ``main`` iterator, converts it
    with ``converter`` to arrays on ``device`` and calls
    ``optimizer.update(loss_func, *arrays)`` of the ``main`` optimizer.

    Iterators and optimizers may be dicts under any names; the default
    :meth:`update_core` and the epoch counters read ``'main'``, so a
    subclass with other names overrides :meth:`update_core` and reads
    them with :meth:`get_iterator` and :meth:`get_optimizer`.

    Args:
        iterator: an iterator or a dict of them (by name).
        optimizer: an optimizer or a dict of them (by name).
        converter: batch to arrays (default :func:`concat_examples`).
        device: where batches go; the main model is moved there too.
        loss_func: the loss (default: the main optimizer's target).
        loss_scale (float): loss scaling for float16 training.
        auto_new_epoch (bool): call ``optimizer.new_epoch`` at epoch ends.
        input_device: where batches go, if different from ``device``.

    Example:
        >>> class GANUpdater(StandardUpdater):
        ...     def update_core(self):
        ...         gen = self.get_optimizer('gen')
        ...         dis = self.get_optimizer('dis')
        ...         batch = self.get_iterator('main').next()
        ...         x = self.converter(batch, self.input_device)
        ...         # both losses from x, each backpropagated, then:
        ...         dis.update()
        ...         gen.update()
        >>> # updater = GANUpdater(it, {'gen': opt_gen, 'dis': opt_dis})
    """

    def __init__(self, iterator, optimizer, converter=convert.concat_examples,
                 device=None, loss_func=None, loss_scale=None,
                 auto_new_epoch=True, *, input_device=None):
        self._iterators = _as_dict(iterator, 'iterator',
                                   ('__next__', 'serialize'))
        self._optimizers = _as_dict(optimizer, 'optimizer',
                                    ('update', 'target', 'serialize'))
        if device is not None:
            from chainer_core._runtime.host import get_device
            device = get_device(device)
            for opt in self._optimizers.values():
                opt.target.to_device(device)
        self.device = device
        self.input_device = device if input_device is None else input_device
        self.converter = converter
        self.loss_func = loss_func
        self.iteration = 0
        self.auto_new_epoch = auto_new_epoch
        if loss_scale is not None:
            for opt in self._optimizers.values():
                opt.set_loss_scale(loss_scale)
        if auto_new_epoch:
            for opt in self._optimizers.values():
                opt.use_auto_new_epoch = True

    @property
    def epoch(self):
        return self.get_iterator('main').epoch

    @property
    def epoch_detail(self):
        return self.get_iterator('main').epoch_detail

    @property
    def previous_epoch_detail(self):
        return self.get_iterator('main').previous_epoch_detail

    @property
    def is_new_epoch(self):
        return self.get_iterator('main').is_new_epoch

    def finalize(self):
        for it in self._iterators.values():
            it.finalize()

    def get_optimizer(self, name):
        """The optimizer called ``name`` (``'main'`` when one was given
        alone)."""
        return _lookup(self._optimizers, name, 'optimizer')

    def get_all_optimizers(self):
        """A dict of every optimizer by name."""
        return dict(self._optimizers)

    def get_iterator(self, name):
        """The iterator called ``name`` (``'main'`` when one was given
        alone)."""
        return _lookup(self._iterators, name, 'iterator')

    def update(self):
        """One iteration."""
        self.update_core()
        self.iteration += 1

    def update_core(self):
        iterator = self.get_iterator('main')
        optimizer = self.get_optimizer('main')
        batch = iterator.next()
        in_arrays = self.converter(batch, self.input_device)
        loss_func = self.loss_func or optimizer.target
        if isinstance(in_arrays, tuple):
            optimizer.update(loss_func, *in_arrays)
        elif isinstance(in_arrays, dict):
            optimizer.update(loss_func, **in_arrays)
        else:
            optimizer.update(loss_func, in_arrays)
        if self.auto_new_epoch and iterator.is_new_epoch:
            optimizer.new_epoch(auto=True)

    def serialize(self, serializer):
        for name, iterator in self._iterators.items():
            iterator.serialize(serializer['iterator:' + name])
        for name, optimizer in self._optimizers.items():
            optimizer.serialize(serializer['optimizer:' + name])
            optimizer.target.serialize(serializer['model:' + name])
        self.iteration = serializer('iteration', self.iteration)
