"""StandardUpdater (tuple, dict and array batches, devices, epochs,
serialization) and ParallelUpdater (equal to StandardUpdater on the whole
batch)."""
import copy

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
from chainer_core import training
from chainer_core.dataset import convert
from chainer_core.serializers import npz

from ._util import Regressor, dataset


class _Recorder(chainer.Chain):
    """Records the arguments of each call; the loss is the sum of x."""

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.w = chainer.Parameter(numpy.ones((1,), numpy.float32))
        self.calls = []

    def forward(self, *args, **kwargs):
        self.calls.append((args, kwargs))
        x = args[0] if args else kwargs['x']
        return F.sum(x * F.broadcast_to(self.w, x.shape))


def _updater(data, batch_size=2, **kwargs):
    model = _Recorder()
    optimizer = chainer.optimizers.SGD(lr=0.1).setup(model)
    it = chainer.iterators.SerialIterator(data, batch_size, shuffle=False)
    return training.updaters.StandardUpdater(it, optimizer, **kwargs), model


def test_tuple_batches_are_positional_arguments():
    x = numpy.arange(8, dtype=numpy.float32).reshape(4, 2)
    t = numpy.arange(4, dtype=numpy.int32)
    updater, model = _updater(chainer.datasets.TupleDataset(x, t))
    updater.update()
    (args, kwargs), = model.calls
    assert kwargs == {} and len(args) == 2
    numpy.testing.assert_array_equal(args[0], x[:2])
    numpy.testing.assert_array_equal(args[1], t[:2])
    # The loss is sum(x * w): its gradient with respect to w is sum(x).
    numpy.testing.assert_allclose(model.w.array, [1 - 0.1 * x[:2].sum()])


def test_dict_batches_are_keyword_arguments():
    x = numpy.arange(6, dtype=numpy.float32).reshape(3, 2)
    y = numpy.ones(3, numpy.float32)
    updater, model = _updater(chainer.datasets.DictDataset(x=x, y=y))
    updater.update()
    (args, kwargs), = model.calls
    assert args == () and sorted(kwargs) == ['x', 'y']
    numpy.testing.assert_array_equal(kwargs['x'], x[:2])


def test_array_batches_are_one_argument():
    x = numpy.arange(6, dtype=numpy.float32).reshape(3, 2)
    updater, model = _updater(x)
    updater.update()
    (args, kwargs), = model.calls
    assert len(args) == 1
    numpy.testing.assert_array_equal(args[0], x[:2])


def test_device_and_converter():
    seen = []

    def converter(batch, device):
        seen.append(device)
        return convert.concat_examples(batch, device)

    x = numpy.ones((4, 2), numpy.float32)
    updater, model = _updater(x, converter=converter, device='@numpy')
    assert updater.device.name == '@numpy'
    assert model.device.name == '@numpy'
    updater.update()
    assert [d.name for d in seen] == ['@numpy']
    updater, _ = _updater(x, converter=converter, input_device='@numpy')
    seen.clear()
    updater.update()
    assert seen == ['@numpy']


def test_loss_func_and_counters():
    x = numpy.ones((5, 2), numpy.float32)
    calls = []

    def loss_func(x):
        calls.append(len(x))
        return F.sum(x)

    updater, model = _updater(x, loss_func=loss_func)
    optimizer = updater.get_optimizer('main')
    for _ in range(3):
        updater.update()
    assert calls == [2, 2, 2] and model.calls == []
    assert updater.iteration == 3
    assert updater.epoch == 1 and updater.is_new_epoch
    assert updater.epoch_detail == pytest.approx(6 / 5)
    assert updater.previous_epoch_detail == pytest.approx(4 / 5)
    # auto_new_epoch: the optimizer counts the epochs of the iterator.
    assert optimizer.epoch == 1
    assert updater.get_all_optimizers() == {'main': optimizer}
    assert updater.get_iterator('main') is updater._iterators['main']


def test_bad_arguments():
    model = _Recorder()
    optimizer = chainer.optimizers.SGD().setup(model)
    it = chainer.iterators.SerialIterator(numpy.ones((2, 1)), 1)
    with pytest.raises(TypeError, match='iterator'):
        training.updaters.StandardUpdater([1, 2], optimizer)
    with pytest.raises(TypeError, match='optimizer'):
        training.updaters.StandardUpdater(it, {'other': optimizer})


def test_serialize_round_trip(tmp_path):
    data = dataset(12)

    def make():
        numpy.random.seed(3)
        model = Regressor()
        opt = chainer.optimizers.Adam().setup(model)
        it = chainer.iterators.SerialIterator(data, 5)
        return training.updaters.StandardUpdater(it, opt), model

    straight, straight_model = make()
    for _ in range(7):
        straight.update()
    first, _ = make()
    for _ in range(3):
        first.update()
    npz.save_npz(str(tmp_path / 'u.npz'), first)
    resumed, resumed_model = make()
    npz.load_npz(str(tmp_path / 'u.npz'), resumed)
    assert resumed.iteration == 3
    for _ in range(4):
        resumed.update()
    for (name, a), (_, b) in zip(straight_model.namedparams(),
                                 resumed_model.namedparams()):
        numpy.testing.assert_array_equal(a.array, b.array, err_msg=name)


def _parallel_pair(devices, lazy=False, steps=4, batch_size=6,
                   optimizer=chainer.optimizers.SGD, **opt_kwargs):
    data = dataset(24)
    numpy.random.seed(0)
    model = Regressor(reduce='sum', lazy=lazy)
    twin = copy.deepcopy(model)
    opt = optimizer(**opt_kwargs).setup(model)
    twin_opt = optimizer(**opt_kwargs).setup(twin)
    standard = training.updaters.StandardUpdater(
        chainer.iterators.SerialIterator(data, batch_size, shuffle=False),
        twin_opt)
    parallel = training.updaters.ParallelUpdater(
        chainer.iterators.SerialIterator(data, batch_size, shuffle=False),
        opt, devices=devices)
    for step in range(steps):
        # Lazily shaped parameters draw their values at the first update.
        numpy.random.seed(step)
        standard.update()
        numpy.random.seed(step)
        parallel.update()
    return standard, parallel, model, twin


@pytest.mark.parametrize('devices', [
    {'main': '@numpy', 'second': '@numpy'},
    {'main': '@numpy', 'b': '@numpy', 'c': '@numpy'},
    ['@numpy', '@numpy'],
])
def test_parallel_updater_equals_standard_on_the_whole_batch(devices):
    _, parallel, model, twin = _parallel_pair(devices, lr=0.01)
    for (name, a), (_, b) in zip(model.namedparams(), twin.namedparams()):
        numpy.testing.assert_allclose(a.array, b.array, rtol=1e-5,
                                      atol=1e-6, err_msg=name)
    # The copies follow the main model after every update.
    for other in parallel._models.values():
        numpy.testing.assert_array_equal(other.fc.W.array, model.fc.W.array)
    assert len(parallel._models) == len(devices)
    assert len({id(m) for m in parallel._models.values()}) == len(devices)


def test_parallel_updater_with_lazy_parameters_and_adam():
    _, parallel, model, twin = _parallel_pair(
        {'main': '@numpy', 'second': '@numpy'}, lazy=True,
        optimizer=chainer.optimizers.Adam, alpha=0.01)
    numpy.testing.assert_allclose(model.fc.W.array, twin.fc.W.array,
                                  rtol=1e-4, atol=1e-5)
    numpy.testing.assert_array_equal(
        parallel._models['second'].fc.W.array, model.fc.W.array)


def test_parallel_updater_with_one_device_is_standard():
    _, _, model, twin = _parallel_pair({'main': '@numpy'}, lr=0.01)
    numpy.testing.assert_allclose(model.fc.W.array, twin.fc.W.array,
                                  rtol=1e-5, atol=1e-6)


def test_parallel_updater_resume_synchronizes_the_copies(tmp_path):
    _, parallel, model, _ = _parallel_pair(
        {'main': '@numpy', 'second': '@numpy'}, lr=0.01)
    npz.save_npz(str(tmp_path / 'p.npz'), parallel)
    _, fresh, fresh_model, _ = _parallel_pair(
        {'main': '@numpy', 'second': '@numpy'}, lr=0.01, steps=0)
    npz.load_npz(str(tmp_path / 'p.npz'), fresh)
    numpy.testing.assert_array_equal(fresh._models['second'].fc.W.array,
                                     model.fc.W.array)


def test_parallel_updater_reports_of_every_model(tmp_path):
    data = dataset(8)
    model = Regressor()
    opt = chainer.optimizers.SGD().setup(model)
    updater = training.updaters.ParallelUpdater(
        chainer.iterators.SerialIterator(data, 4), opt,
        devices={'main': '@numpy', 'second': '@numpy'})
    trainer = training.Trainer(updater, (1, 'iteration'), out=str(tmp_path))
    seen = []
    trainer.extend(lambda t: seen.append(sorted(t.observation)),
                   name='look')
    trainer.run()
    assert seen == [['main/loss', 'second/loss']]


def test_parallel_updater_bad_arguments():
    model = Regressor()
    opt = chainer.optimizers.SGD().setup(model)
    it = chainer.iterators.SerialIterator(dataset(4), 2)
    with pytest.raises(ValueError, match='models or devices'):
        training.updaters.ParallelUpdater(it, opt)
    with pytest.raises(KeyError, match='main'):
        training.updaters.ParallelUpdater(it, opt, devices={'a': '@numpy'})
    with pytest.raises(ValueError, match="models\\['main'\\]"):
        training.updaters.ParallelUpdater(
            it, opt, models={'main': Regressor()})
