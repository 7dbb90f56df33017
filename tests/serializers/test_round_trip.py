"""Behaviour shared by the npz and HDF5 serializers (``fmt`` fixture)."""
import io
import os

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L
from chainer_core import training

from ._formats import FORMATS


class Net(chainer.Chain):

    def __init__(self, n_in=3, lazy=False):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(None if lazy else n_in, 4)
            self.bn = L.BatchNormalization(4)
            self.l2 = L.Linear(4, 2)

    def forward(self, x):
        return self.l2(F.relu(self.bn(self.l1(x))))


def _loss(model, x, t):
    return F.mean_squared_error(model(x), t)


def _data(seed=0, n=8):
    rng = numpy.random.RandomState(seed)
    return (rng.randn(n, 3).astype(numpy.float32),
            rng.randn(n, 2).astype(numpy.float32))


def _params(link):
    return {name: numpy.array(p.array) for name, p in link.namedparams()}


def _assert_same_link(a, b):
    pa, pb = _params(a), _params(b)
    assert sorted(pa) == sorted(pb)
    for name in pa:
        numpy.testing.assert_array_equal(pa[name], pb[name], err_msg=name)
    for name in ('avg_mean', 'avg_var'):
        numpy.testing.assert_array_equal(getattr(a.bn, name),
                                         getattr(b.bn, name))
    assert a.bn.N == b.bn.N


def _trained(seed=0, steps=3, opt=None):
    numpy.random.seed(seed)
    model = Net()
    opt = opt or chainer.optimizers.Adam()
    opt.setup(model)
    x, t = _data(seed)
    for _ in range(steps):
        opt.update(_loss, model, x, t)
    return model, opt


def _leftovers(folder):
    return [n for n in os.listdir(folder) if n.startswith('.tmp-')]


class Persistents(chainer.Link):

    def __init__(self, **values):
        super().__init__()
        for name, value in values.items():
            self.add_persistent(name, value)


# -- links --------------------------------------------------------------


def test_link_round_trip(fmt, tmp_path):
    src, _ = _trained()
    numpy.random.seed(1)
    dst = Net()
    path = tmp_path / ('m' + fmt.ext)
    fmt.save(path, src)
    fmt.load(path, dst)
    _assert_same_link(src, dst)
    # The destination's arrays are filled in place, not replaced.
    assert dst.l1.W.array.dtype == numpy.float32


def test_path_as_str_and_pathlike(fmt, tmp_path):
    src, _ = _trained()
    dst = Net()
    fmt.save(str(tmp_path / ('m' + fmt.ext)), src)
    fmt.load(tmp_path / ('m' + fmt.ext), dst)
    _assert_same_link(src, dst)


def test_file_objects(fmt):
    src, _ = _trained()
    dst = Net()
    buf = io.BytesIO()
    fmt.save(buf, src)
    assert buf.getvalue()
    buf.seek(0)
    fmt.load(buf, dst)
    _assert_same_link(src, dst)


def test_predictions_agree_after_loading(fmt, tmp_path):
    src, _ = _trained()
    dst = Net()
    fmt.save(tmp_path / ('m' + fmt.ext), src)
    fmt.load(tmp_path / ('m' + fmt.ext), dst)
    x, _ = _data(5)
    with chainer.using_config('train', False):
        numpy.testing.assert_array_equal(src(x).array, dst(x).array)


def test_uninitialised_parameter_round_trip(fmt, tmp_path):
    lazy = L.Linear(None, 2)
    path = tmp_path / ('lazy' + fmt.ext)
    fmt.save(path, lazy)

    other = L.Linear(None, 2)
    fmt.load(path, other)
    assert other.W.array is None
    numpy.testing.assert_array_equal(other.b.array, lazy.b.array)

    # Loading "not initialised yet" keeps an initialised parameter.
    ready = L.Linear(3, 2)
    before = ready.W.array.copy()
    fmt.load(path, ready)
    numpy.testing.assert_array_equal(ready.W.array, before)


def test_loading_initialises_lazy_parameters(fmt, tmp_path):
    src = L.Linear(3, 2)
    path = tmp_path / ('m' + fmt.ext)
    fmt.save(path, src)
    dst = L.Linear(None, 2)
    fmt.load(path, dst)
    assert dst.W.shape == (2, 3)
    numpy.testing.assert_array_equal(dst.W.array, src.W.array)
    # The lazily made parameter is an ordinary one afterwards.
    y = dst(numpy.ones((1, 3), numpy.float32))
    numpy.testing.assert_allclose(
        y.array, src(numpy.ones((1, 3), numpy.float32)).array)


def test_lazy_model_runs_after_loading(fmt, tmp_path):
    src, _ = _trained()
    dst = Net(lazy=True)
    fmt.save(tmp_path / ('m' + fmt.ext), src)
    fmt.load(tmp_path / ('m' + fmt.ext), dst)
    _assert_same_link(src, dst)


# -- optimizers ---------------------------------------------------------


@pytest.mark.parametrize('make_opt', [
    lambda: chainer.optimizers.Adam(alpha=0.01),
    lambda: chainer.optimizers.MomentumSGD(lr=0.05),
    lambda: chainer.optimizers.RMSprop(lr=0.01),
    lambda: chainer.optimizers.SGD(lr=0.1),
], ids=['Adam', 'MomentumSGD', 'RMSprop', 'SGD'])
def test_optimizer_resumes_exactly(fmt, tmp_path, make_opt):
    model, opt = _trained(steps=3, opt=make_opt())
    fmt.save(tmp_path / ('m' + fmt.ext), model)
    fmt.save(tmp_path / ('o' + fmt.ext), opt)

    numpy.random.seed(7)
    model2 = Net()
    opt2 = make_opt()
    opt2.setup(model2)
    fmt.load(tmp_path / ('m' + fmt.ext), model2)
    fmt.load(tmp_path / ('o' + fmt.ext), opt2)
    assert opt2.t == opt.t == 3
    assert opt2.epoch == opt.epoch

    x, t = _data(3)
    for _ in range(4):
        opt.update(_loss, model, x, t)
        opt2.update(_loss, model2, x, t)
    _assert_same_link(model, model2)
    assert opt2.t == 7


def test_optimizer_state_arrays_round_trip(fmt, tmp_path):
    model, opt = _trained(steps=2)
    fmt.save(tmp_path / ('o' + fmt.ext), opt)
    model2 = Net()
    opt2 = chainer.optimizers.Adam()
    opt2.setup(model2)
    fmt.load(tmp_path / ('o' + fmt.ext), opt2)
    for (name, p), (_, q) in zip(model.namedparams(), model2.namedparams()):
        assert q.update_rule.t == p.update_rule.t == 2
        for key in ('m', 'v'):
            numpy.testing.assert_array_equal(q.update_rule.state[key],
                                             p.update_rule.state[key])


def test_optimizer_never_updated(fmt, tmp_path):
    model = Net()
    opt = chainer.optimizers.Adam()
    opt.setup(model)
    fmt.save(tmp_path / ('o' + fmt.ext), opt)
    model2 = Net()
    model2.copyparams(model)
    opt2 = chainer.optimizers.Adam()
    opt2.setup(model2)
    fmt.load(tmp_path / ('o' + fmt.ext), opt2)
    assert opt2.t == 0
    x, t = _data()
    opt.update(_loss, model, x, t)
    opt2.update(_loss, model2, x, t)
    _assert_same_link(model, model2)


# -- persistent values --------------------------------------------------


_VALUES = dict(i=3, big=2 ** 40, f=2.5, flag=True, s='héllo wörld',
               empty='', raw=b'\x00bytes', none=None,
               f32=numpy.float32(1.5), i16=numpy.int16(-7),
               arr=numpy.arange(6, dtype=numpy.int64).reshape(2, 3),
               words=numpy.array(['a', 'bcd']),
               zero=numpy.zeros((0, 3), numpy.float32))

_BLANK = dict(i=0, big=0, f=0.0, flag=False, s='x', empty='x', raw=b'',
              none=5, f32=numpy.float32(0), i16=numpy.int16(0),
              arr=numpy.zeros((2, 3), numpy.int64), words=None,
              zero=numpy.ones((0, 3), numpy.float32))


def test_persistent_values_round_trip(fmt, tmp_path):
    src = Persistents(**_VALUES)
    dst = Persistents(**_BLANK)
    fmt.save(tmp_path / ('p' + fmt.ext), src)
    fmt.load(tmp_path / ('p' + fmt.ext), dst)
    for name in ('i', 'big', 'f', 'flag', 's', 'empty', 'raw', 'f32',
                 'i16'):
        got, want = getattr(dst, name), _VALUES[name]
        assert got == want and type(got) is type(want), name
    assert dst.none is None
    numpy.testing.assert_array_equal(dst.arr, _VALUES['arr'])
    assert dst.arr is not src.arr
    numpy.testing.assert_array_equal(dst.words, ['a', 'bcd'])
    assert dst.zero.shape == (0, 3)


def test_value_loaded_into_none_is_the_stored_array(fmt, tmp_path):
    fmt.save(tmp_path / ('p' + fmt.ext), Persistents(n=4, a=numpy.ones(2)))
    dst = Persistents(n=None, a=None)
    fmt.load(tmp_path / ('p' + fmt.ext), dst)
    assert isinstance(dst.n, numpy.ndarray) and dst.n.shape == () and \
        int(dst.n) == 4
    numpy.testing.assert_array_equal(dst.a, [1, 1])


def test_none_loaded_into_a_value_gives_none(fmt, tmp_path):
    fmt.save(tmp_path / ('p' + fmt.ext), Persistents(a=None))
    dst = Persistents(a=numpy.ones(3))
    fmt.load(tmp_path / ('p' + fmt.ext), dst)
    assert dst.a is None


def test_unsafe_scalar_cast_is_refused(fmt, tmp_path):
    fmt.save(tmp_path / ('p' + fmt.ext), Persistents(v=2.5))
    with pytest.raises(TypeError, match="'v'"):
        fmt.load(tmp_path / ('p' + fmt.ext), Persistents(v=0))


def test_array_into_a_scalar_is_refused(fmt, tmp_path):
    fmt.save(tmp_path / ('p' + fmt.ext), Persistents(v=numpy.ones(3)))
    with pytest.raises(ValueError, match="'v'"):
        fmt.load(tmp_path / ('p' + fmt.ext), Persistents(v=0.0))


def test_unserializable_value_is_refused_without_pickling(fmt, tmp_path):
    path = tmp_path / ('p' + fmt.ext)
    with pytest.raises(TypeError, match='pickl'):
        fmt.save(path, Persistents(d={'a': 1}))
    assert not path.exists()
    assert _leftovers(tmp_path) == []


# -- strictness and selection -------------------------------------------


def test_strict_missing_key_names_it(fmt, tmp_path):
    fmt.save(tmp_path / ('m' + fmt.ext), L.Linear(3, 2, nobias=True))
    dst = L.Linear(3, 2)
    with pytest.raises(KeyError, match="'b'"):
        fmt.load(tmp_path / ('m' + fmt.ext), dst)


def test_strict_missing_child_names_the_key(fmt, tmp_path):
    fmt.save(tmp_path / ('m' + fmt.ext), L.Linear(3, 4))
    with pytest.raises(KeyError, match=r"'(bn|l1|l2)/\w+'"):
        fmt.load(tmp_path / ('m' + fmt.ext), Net())


def test_non_strict_keeps_missing_values(fmt, tmp_path):
    src = L.Linear(3, 2, nobias=True)
    fmt.save(tmp_path / ('m' + fmt.ext), src)
    dst = L.Linear(3, 2, initial_bias=7.0)
    fmt.load(tmp_path / ('m' + fmt.ext), dst, strict=False)
    numpy.testing.assert_array_equal(dst.W.array, src.W.array)
    numpy.testing.assert_array_equal(dst.b.array, [7, 7])


def test_non_strict_missing_group(fmt, tmp_path):
    fmt.save(tmp_path / ('m' + fmt.ext), L.Linear(3, 4))
    dst = Net()
    before = _params(dst)
    fmt.load(tmp_path / ('m' + fmt.ext), dst, strict=False)
    after = _params(dst)
    for name in before:
        numpy.testing.assert_array_equal(before[name], after[name])


def test_ignore_names_list(fmt, tmp_path):
    src, _ = _trained()
    fmt.save(tmp_path / ('m' + fmt.ext), src)
    dst = Net()
    kept = dst.l1.W.array.copy()
    fmt.load(tmp_path / ('m' + fmt.ext), dst, ignore_names=['l1/W'])
    numpy.testing.assert_array_equal(dst.l1.W.array, kept)
    numpy.testing.assert_array_equal(dst.l1.b.array, src.l1.b.array)
    numpy.testing.assert_array_equal(dst.l2.W.array, src.l2.W.array)


def test_ignore_names_callable(fmt, tmp_path):
    src, _ = _trained()
    fmt.save(tmp_path / ('m' + fmt.ext), src)
    dst = Net()
    kept = {k: v.copy() for k, v in _params(dst).items()
            if k.startswith('/l2/')}
    seen = []

    def ignore(key):
        seen.append(key)
        return key.startswith('l2/')

    fmt.load(tmp_path / ('m' + fmt.ext), dst, ignore_names=ignore)
    assert 'l1/W' in seen and 'bn/avg_mean' in seen and 'l2/b' in seen
    for name, value in kept.items():
        numpy.testing.assert_array_equal(_params(dst)[name], value)
    numpy.testing.assert_array_equal(dst.l1.W.array, src.l1.W.array)


def test_ignored_names_need_not_be_in_the_file(fmt, tmp_path):
    fmt.save(tmp_path / ('m' + fmt.ext), L.Linear(3, 2, nobias=True))
    dst = L.Linear(3, 2)
    fmt.load(tmp_path / ('m' + fmt.ext), dst, ignore_names=['b'])


def _trainer(out, lazy=False):
    numpy.random.seed(0)
    model = L.Classifier(Net(lazy=lazy), lossfun=F.mean_squared_error)
    model.compute_accuracy = False
    opt = chainer.optimizers.Adam()
    opt.setup(model)
    x, t = _data(n=12)
    it = chainer.iterators.SerialIterator(
        chainer.datasets.TupleDataset(x, t), 4, shuffle=False)
    updater = training.updaters.StandardUpdater(it, opt)
    return training.Trainer(updater, (2, 'epoch'), out=str(out))


def test_path_reads_a_model_out_of_a_trainer_snapshot(fmt, tmp_path):
    trainer = _trainer(tmp_path)
    trainer.run()
    snap = tmp_path / ('snapshot' + fmt.ext)
    fmt.save(snap, trainer)
    model = trainer.updater.get_optimizer('main').target

    dst = L.Classifier(Net(), lossfun=F.mean_squared_error)
    fmt.load(snap, dst, path=fmt.model_path)
    _assert_same_link(model.predictor, dst.predictor)

    with pytest.raises(KeyError):
        fmt.load(snap, L.Classifier(Net()))


def test_path_with_the_snapshot_extension(fmt, tmp_path):
    trainer = _trainer(tmp_path, lazy=True)
    trainer.extend(training.extensions.snapshot(
        savefun=fmt.save, filename='snap_{.updater.iteration}'),
        trigger=(2, 'epoch'))
    trainer.run()
    model = trainer.updater.get_optimizer('main').target
    dst = L.Classifier(Net(lazy=True), lossfun=F.mean_squared_error)
    fmt.load(tmp_path / 'snap_6', dst, path=fmt.model_path)
    _assert_same_link(model.predictor, dst.predictor)

    resumed = _trainer(tmp_path / 'again', lazy=True)
    fmt.load(tmp_path / 'snap_6', resumed)
    assert resumed.updater.iteration == 6
    assert resumed.updater.get_optimizer('main').t == 6


def test_ignore_names_are_full_keys_under_path(fmt, tmp_path):
    trainer = _trainer(tmp_path)
    trainer.run()
    snap = tmp_path / ('snapshot' + fmt.ext)
    fmt.save(snap, trainer)
    dst = L.Classifier(Net(), lossfun=F.mean_squared_error)
    kept = dst.predictor.l1.W.array.copy()
    fmt.load(snap, dst, path=fmt.model_path,
             ignore_names=[fmt.key(fmt.model_path, 'predictor/l1/W')])
    numpy.testing.assert_array_equal(dst.predictor.l1.W.array, kept)


# -- mismatches and damaged files ---------------------------------------


def test_shape_mismatch_names_key_and_shapes(fmt, tmp_path):
    fmt.save(tmp_path / ('m' + fmt.ext), L.Linear(3, 2))
    with pytest.raises(ValueError) as info:
        fmt.load(tmp_path / ('m' + fmt.ext), L.Linear(4, 2))
    message = str(info.value)
    assert "'W'" in message and '(2, 4)' in message and '(2, 3)' in message


def test_compatible_dtype_is_cast(fmt, tmp_path):
    fmt.save(tmp_path / ('m' + fmt.ext), L.Linear(3, 2))
    with chainer.using_config('dtype', numpy.dtype(numpy.float64)):
        dst64 = L.Linear(3, 2)
    fmt.load(tmp_path / ('m' + fmt.ext), dst64)
    assert dst64.W.dtype == numpy.float64


def test_missing_file(fmt, tmp_path):
    with pytest.raises(FileNotFoundError):
        fmt.load(tmp_path / ('absent' + fmt.ext), L.Linear(3, 2))


@pytest.mark.parametrize('keep', [0.1, 0.5, 0.9, 0.99])
def test_truncated_file(fmt, tmp_path, keep):
    path = tmp_path / ('m' + fmt.ext)
    fmt.save(path, _trained()[0])
    data = path.read_bytes()
    path.write_bytes(data[:int(len(data) * keep)])
    with pytest.raises(ValueError, match='truncated'):
        fmt.load(path, Net())


def test_empty_file(fmt, tmp_path):
    path = tmp_path / ('m' + fmt.ext)
    path.write_bytes(b'')
    with pytest.raises(ValueError):
        fmt.load(path, Net())


def test_text_file(fmt, tmp_path):
    path = tmp_path / ('m' + fmt.ext)
    path.write_text('W,b\n1,2\n')
    with pytest.raises(ValueError, match='not a readable'):
        fmt.load(path, L.Linear(3, 2))


def test_garbage_file_object(fmt):
    with pytest.raises(ValueError, match='not a readable'):
        fmt.load(io.BytesIO(b'\x89 no model here' * 50), L.Linear(3, 2))


def test_other_format_is_refused(fmt, tmp_path):
    pytest.importorskip('h5py')
    other = FORMATS['npz' if fmt.name == 'hdf5' else 'hdf5']
    path = tmp_path / 'm'
    other.save(path, L.Linear(3, 2))
    with pytest.raises(ValueError, match='not a readable'):
        fmt.load(path, L.Linear(3, 2))


# -- atomic saving --------------------------------------------------------


class _Exploding(chainer.Link):
    """Writes a few values, then fails half-way through serializing."""

    def __init__(self, exc=RuntimeError):
        super().__init__()
        self.exc = exc

    def serialize(self, serializer):
        serializer('a', numpy.ones(100, numpy.float32))
        serializer('b', 3)
        raise self.exc('boom')


@pytest.mark.parametrize('exc', [RuntimeError, KeyboardInterrupt])
def test_failing_serializer_keeps_the_previous_file(fmt, tmp_path, exc):
    path = tmp_path / ('m' + fmt.ext)
    src = L.Linear(3, 2)
    fmt.save(path, src)
    before = path.read_bytes()
    with pytest.raises(exc, match='boom'):
        fmt.save(path, _Exploding(exc))
    assert path.read_bytes() == before
    assert _leftovers(tmp_path) == []
    dst = L.Linear(3, 2)
    fmt.load(path, dst)
    numpy.testing.assert_array_equal(dst.W.array, src.W.array)


def test_failing_save_of_a_new_file_leaves_nothing(fmt, tmp_path):
    with pytest.raises(RuntimeError):
        fmt.save(tmp_path / ('m' + fmt.ext), _Exploding())
    assert os.listdir(tmp_path) == []


def test_save_replaces_the_file(fmt, tmp_path):
    path = tmp_path / ('m' + fmt.ext)
    fmt.save(path, L.Linear(3, 2))
    src = L.Linear(3, 2)
    fmt.save(path, src)
    dst = L.Linear(3, 2)
    fmt.load(path, dst)
    numpy.testing.assert_array_equal(dst.W.array, src.W.array)
    assert os.listdir(tmp_path) == [path.name]


def test_saved_file_permissions_follow_the_umask(fmt, tmp_path):
    if os.name != 'posix':
        pytest.skip('POSIX permissions')
    old = os.umask(0o027)
    try:
        fmt.save(tmp_path / ('m' + fmt.ext), L.Linear(3, 2))
    finally:
        os.umask(old)
    assert os.stat(tmp_path / ('m' + fmt.ext)).st_mode & 0o777 == 0o640


def test_unwritable_folder(fmt, tmp_path):
    with pytest.raises(FileNotFoundError):
        fmt.save(tmp_path / 'absent' / ('m' + fmt.ext), L.Linear(3, 2))
