"""StandardUpdater (tuple, dict and array batches, devices, epochs,
serialization) and ParallelUpdater (equal to StandardUpdater on the whole
batch)."""
import copy

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L
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
    with pytest.raises(TypeError, match="optimizer 'dis'.*lacks update"):
        training.updaters.StandardUpdater(it, {'gen': optimizer,
                                               'dis': model})
    with pytest.raises(ValueError, match='optimizers is empty'):
        training.updaters.StandardUpdater(it, {})


def test_optimizers_and_iterators_under_any_names():
    gen, dis = _Recorder(), _Recorder()
    opt_gen = chainer.optimizers.SGD().setup(gen)
    opt_dis = chainer.optimizers.SGD().setup(dis)
    it = chainer.iterators.SerialIterator(numpy.ones((4, 1)), 2)
    noise = chainer.iterators.SerialIterator(numpy.ones((4, 1)), 2)
    updater = training.updaters.StandardUpdater(
        {'main': it, 'noise': noise}, {'gen': opt_gen, 'dis': opt_dis})
    assert updater.get_optimizer('gen') is opt_gen
    assert updater.get_optimizer('dis') is opt_dis
    assert updater.get_all_optimizers() == {'gen': opt_gen, 'dis': opt_dis}
    assert updater.get_iterator('noise') is noise
    # Both optimizers count epochs, as Chainer's do.
    assert opt_gen.use_auto_new_epoch and opt_dis.use_auto_new_epoch
    with pytest.raises(KeyError, match="no optimizer named 'main'.*dis"):
        updater.get_optimizer('main')
    # The default update_core needs a 'main' optimizer.
    with pytest.raises(KeyError, match="optimizer named 'main'"):
        updater.update()
    assert updater.epoch == 0


def test_epochs_need_a_main_iterator():
    model = _Recorder()
    optimizer = chainer.optimizers.SGD().setup(model)
    it = chainer.iterators.SerialIterator(numpy.ones((2, 1)), 1)
    updater = training.updaters.StandardUpdater({'train': it}, optimizer)
    assert updater.get_iterator('train') is it
    with pytest.raises(KeyError, match="no iterator named 'main'.*train"):
        updater.epoch


def test_device_moves_every_optimizer_target():
    gen, dis = _Recorder(), _Recorder()
    opts = {'gen': chainer.optimizers.SGD().setup(gen),
            'dis': chainer.optimizers.SGD().setup(dis)}
    it = chainer.iterators.SerialIterator(numpy.ones((2, 1)), 1)
    updater = training.updaters.StandardUpdater(it, opts, device=-1)
    assert updater.device.name == '@numpy'
    assert updater.input_device is updater.device
    assert gen.device.name == '@numpy' and dis.device.name == '@numpy'


class _Generator(chainer.Chain):
    def __init__(self, w):
        super().__init__()
        with self.init_scope():
            self.l = L.Linear(w.shape[1], w.shape[0], nobias=True,
                              initialW=w)

    def forward(self, z):
        return self.l(z)


class _GANUpdater(training.updaters.StandardUpdater):
    """Chainer's DCGAN example's updater, with linear models and losses
    whose gradients are known in closed form."""

    def update_core(self):
        opt_gen = self.get_optimizer('gen')
        opt_dis = self.get_optimizer('dis')
        gen, dis = opt_gen.target, opt_dis.target
        x_real = self.converter(self.get_iterator('main').next(),
                                self.device)
        z = self.converter(self.get_iterator('noise').next(), self.device)
        x_fake = gen(z)
        y_real, y_fake = dis(x_real), dis(x_fake)
        loss_dis = F.sum(y_real) - F.sum(y_fake)
        loss_gen = F.sum(y_fake)
        chainer.report({'loss': loss_gen}, gen)
        chainer.report({'loss': loss_dis}, dis)
        gen.cleargrads()
        loss_gen.backward()
        opt_gen.update()
        dis.cleargrads()
        loss_dis.backward()
        opt_dis.update()


def _gan():
    rng = numpy.random.RandomState(1)
    real = rng.randn(8, 3).astype(numpy.float32)
    noise = rng.randn(8, 2).astype(numpy.float32)
    w_gen = rng.randn(3, 2).astype(numpy.float32)
    w_dis = rng.randn(1, 3).astype(numpy.float32)
    gen, dis = _Generator(w_gen), _Generator(w_dis)
    opt_gen = chainer.optimizers.SGD(lr=0.1).setup(gen)
    opt_dis = chainer.optimizers.SGD(lr=0.2).setup(dis)
    updater = _GANUpdater(
        {'main': chainer.iterators.SerialIterator(real, 4, shuffle=False),
         'noise': chainer.iterators.SerialIterator(noise, 4, shuffle=False)},
        {'gen': opt_gen, 'dis': opt_dis}, device='@numpy')
    return updater, gen, dis, (real, noise, w_gen, w_dis)


def test_gan_updater_updates_both_models():
    updater, gen, dis, (real, noise, w_gen, w_dis) = _gan()
    for step in range(4):
        rows = slice(4 * (step % 2), 4 * (step % 2) + 4)
        x, z = real[rows], noise[rows]
        x_fake = z @ w_gen.T
        # d(sum(w_dis x_fake))/d w_gen = w_dis^T (sum of z); the
        # discriminator's gradient is the sum of real minus fake inputs.
        grad_gen = numpy.outer(w_dis[0], z.sum(axis=0))
        grad_dis = (x.sum(axis=0) - x_fake.sum(axis=0))[None]
        w_gen = w_gen - 0.1 * grad_gen
        w_dis = w_dis - 0.2 * grad_dis
        updater.update()
        numpy.testing.assert_allclose(gen.l.W.array, w_gen, rtol=1e-5)
        numpy.testing.assert_allclose(dis.l.W.array, w_dis, rtol=1e-5)
    assert updater.iteration == 4 and updater.epoch == 2
    # Only the default update_core tells optimizers of new epochs.
    assert updater.get_optimizer('gen').epoch == 0
    assert updater.get_optimizer('dis').epoch == 0


def test_gan_updater_in_a_trainer_and_resumed(tmp_path):
    updater, gen, dis, _ = _gan()
    trainer = training.Trainer(updater, (2, 'epoch'), out=str(tmp_path))
    seen = []
    trainer.extend(lambda t: seen.append(sorted(t.observation)),
                   name='look')
    trainer.run()
    assert updater.iteration == 4
    assert seen[-1] == ['dis/loss', 'gen/loss']
    path = str(tmp_path / 'gan.npz')
    npz.save_npz(path, updater)
    with numpy.load(path) as f:
        names = set(f.files)
    assert {'optimizer:gen/t', 'optimizer:dis/t', 'model:gen/l/W',
            'model:dis/l/W', 'iterator:noise/current_position',
            'iteration'} <= names
    resumed, resumed_gen, resumed_dis, _ = _gan()
    npz.load_npz(path, resumed)
    assert resumed.iteration == 4
    numpy.testing.assert_array_equal(resumed_gen.l.W.array, gen.l.W.array)
    numpy.testing.assert_array_equal(resumed_dis.l.W.array, dis.l.W.array)
    assert resumed.get_optimizer('dis').t == 4


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


def test_multiprocess_parallel_updater_is_unavailable_and_says_why():
    cls = training.updaters.MultiprocessParallelUpdater
    assert issubclass(cls, training.updaters.StandardUpdater)
    assert cls.available() is False
    model = Regressor()
    opt = chainer.optimizers.SGD().setup(model)
    its = [chainer.iterators.SerialIterator(dataset(4), 2) for _ in range(2)]
    with pytest.raises(RuntimeError, match='chainer-cuda.*ParallelUpdater'):
        cls(its, opt, devices=[0, 1])
