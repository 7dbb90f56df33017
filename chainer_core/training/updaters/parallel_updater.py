"""ParallelUpdater: data-parallel training on several devices of one
host."""
import copy

from chainer_core._runtime.host import get_device
from chainer_core import serializer as serializer_module
from chainer_core.configuration import using_config
from chainer_core.dataset import convert
from chainer_core.training.updaters.standard_updater import StandardUpdater


class ParallelUpdater(StandardUpdater):
    """Split each batch over several copies of the model, one per device,
    and sum their gradients into the main model before the update.

    The batch from the ``main`` iterator is dealt round-robin
    (``batch[i::n]`` to the i-th model), each model computes its loss on
    its part and backpropagates, the gradients of the other models are
    added to the main model's, the main optimizer updates, and the other
    models copy the updated parameters. The gradient is thus the sum of the
    per-device gradients: with a loss summed over examples this is the
    update of :class:`StandardUpdater` on the whole batch.

    Args:
        iterator: an iterator or ``{'main': iterator, ...}``.
        optimizer: an optimizer or ``{'main': optimizer, ...}``.
        converter: batch to arrays on a device.
        models (dict): ``{'main': model, name: model, ...}`` (the main one
            is the optimizer's target); made from ``devices`` when None.
        devices (dict or list): the device of each model (specifiers or
            devices), ``'main'`` for the main model; a list names them
            ``main``, then ``1``, ``2``... With ``models=None`` the other
            models are deep copies of the optimizer's target. Several
            entries may name one device (e.g. ``'@numpy'``).
        loss_func: the loss (default: each model).
        loss_scale (float): loss scaling for float16 training.
        auto_new_epoch (bool): call ``optimizer.new_epoch`` at epoch ends.
    """

    def __init__(self, iterator, optimizer, converter=convert.concat_examples,
                 models=None, devices=None, loss_func=None, loss_scale=None,
                 auto_new_epoch=True):
        super().__init__(iterator, optimizer, converter=converter,
                         loss_func=loss_func, loss_scale=loss_scale,
                         auto_new_epoch=auto_new_epoch)
        if isinstance(devices, (list, tuple)):
            devices = {('main' if i == 0 else str(i)): d
                       for i, d in enumerate(devices)}
        target = self.get_optimizer('main').target
        if models is None:
            if not devices:
                raise ValueError('ParallelUpdater: give models or devices')
            if 'main' not in devices:
                raise KeyError("ParallelUpdater: devices must have the key "
                               "'main'")
            devices = {k: get_device(v) for k, v in devices.items()}
            target.to_device(devices['main'])
            models = {'main': target}
            for name, device in devices.items():
                if name != 'main':
                    model = copy.deepcopy(target)
                    model.to_device(device)
                    models[name] = model
        else:
            if 'main' not in models:
                raise KeyError("ParallelUpdater: models must have the key "
                               "'main'")
            if models['main'] is not target:
                raise ValueError("ParallelUpdater: models['main'] must be "
                                 "the main optimizer's target")
            if devices is None:
                devices = {k: m.device for k, m in models.items()}
            else:
                devices = {k: get_device(v) for k, v in devices.items()}
            missing = set(models) - set(devices)
            if missing:
                raise KeyError('ParallelUpdater: no device for the models {}'
                               .format(sorted(missing)))
        # The main model first: it initializes lazily shaped parameters,
        # which the others then adopt.
        self._models = dict(sorted(models.items(),
                                   key=lambda kv: kv[0] != 'main'))
        self._devices = devices
        self.loss_scale = loss_scale

    def connect_trainer(self, trainer):
        main = self.get_optimizer('main').target
        for name, model in self._models.items():
            if model is not main:
                trainer.reporter.add_observer(name, model)
                trainer.reporter.add_observers(
                    name, model.namedlinks(skipself=True))

    def update_core(self):
        optimizer = self.get_optimizer('main')
        main = optimizer.target
        iterator = self.get_iterator('main')
        batch = iterator.next()
        n = len(self._models)
        for model in self._models.values():
            model.cleargrads()
        losses = []
        for i, (name, model) in enumerate(self._models.items()):
            if model is not main:
                _adopt_uninitialized(model, main, self._devices[name])
            in_arrays = self.converter(batch[i::n], self._devices[name])
            loss_func = self.loss_func or model
            with using_config('enable_backprop', True):
                if isinstance(in_arrays, tuple):
                    loss = loss_func(*in_arrays)
                elif isinstance(in_arrays, dict):
                    loss = loss_func(**in_arrays)
                else:
                    loss = loss_func(in_arrays)
            losses.append(loss)
        # Lazily shaped parameters got their arrays in the forward passes.
        for model in self._models.values():
            model.cleargrads()
        for loss in losses:
            loss.backward(loss_scale=self.loss_scale)
        for model in self._models.values():
            if model is not main:
                main.addgrads(model)
        optimizer.update()
        for model in self._models.values():
            if model is not main:
                model.copyparams(main)
        if self.auto_new_epoch and iterator.is_new_epoch:
            optimizer.new_epoch(auto=True)

    def serialize(self, serializer):
        super().serialize(serializer)
        if isinstance(serializer, serializer_module.Deserializer):
            # Only the main model is in a snapshot: the others take its
            # loaded parameters before their next forward pass.
            main = self.get_optimizer('main').target
            for name, model in self._models.items():
                if model is not main:
                    _adopt_uninitialized(model, main, self._devices[name])
                    model.copyparams(main)


def _adopt_uninitialized(model, main, device):
    """Give the parameters of ``model`` that have no array yet copies of
    the main model's (without drawing from their initializers)."""
    for (_, p), (_, q) in zip(model.namedparams(), main.namedparams()):
        if p.array is None and q.array is not None:
            p.array = device.send(q.array).copy()
