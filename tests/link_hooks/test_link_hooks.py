"""Link hooks: the base class, TimerHook and SpectralNormalization."""
import io

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L
from chainer_core import link_hooks
from chainer_core.serializers import load_npz, save_npz


def _x(shape=(2, 3), seed=0):
    return numpy.random.RandomState(seed).uniform(
        -1, 1, shape).astype(numpy.float32)


class MLP(chainer.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(3, 4)
            self.l2 = L.Linear(4, 2)

    def forward(self, x):
        return self.l2(F.relu(self.l1(x)))


# -- LinkHook and TimerHook -----------------------------------------------


def test_link_hook_base_with_statement():
    events = []

    class Hook(chainer.LinkHook):
        name = 'Rec'

        def added(self, link):
            events.append(('added', link))

        def deleted(self, link):
            events.append(('deleted', link))

        def forward_preprocess(self, args):
            events.append(('pre', type(args.link).__name__, len(args.args)))

        def forward_postprocess(self, args):
            events.append(('post', type(args.link).__name__,
                           args.out.shape))

    model = MLP()
    with Hook():
        model(_x())
    assert events[0] == ('added', None) and events[-1] == ('deleted', None)
    assert events[1:-1] == [('pre', 'MLP', 1), ('pre', 'Linear', 1),
                            ('post', 'Linear', (2, 4)),
                            ('pre', 'Linear', 1),
                            ('post', 'Linear', (2, 2)),
                            ('post', 'MLP', (2, 2))]


def test_timer_hook_records_links():
    hook = link_hooks.TimerHook()
    model = MLP()
    with hook:
        model(_x())
        model(_x())
    names = [name for name, _ in hook.call_history]
    assert names == ['Linear', 'Linear', 'MLP'] * 2
    total_mlp = sum(t for n, t in hook.call_history if n == 'MLP')
    assert hook.total_time() == pytest.approx(total_mlp)
    summary = hook.summary()
    assert summary['Linear']['occurrence'] == 4
    assert summary['MLP']['occurrence'] == 2
    out = io.StringIO()
    hook.print_report(file=out)
    lines = out.getvalue().splitlines()
    assert lines[0].split() == ['LinkName', 'ElapsedTime', 'Occurrence']
    assert [line.split()[0] for line in lines[1:]] == ['Linear', 'MLP']


def test_timer_hook_on_one_link():
    hook = link_hooks.TimerHook()
    model = MLP()
    model.l1.add_hook(hook)
    model(_x())
    assert [n for n, _ in hook.call_history] == ['Linear']


# -- SpectralNormalization ------------------------------------------------


def _normalize(v, eps=1e-6):
    return v / (numpy.linalg.norm(v) + eps)


def _reference_sigma(w, u, steps=1):
    for _ in range(steps):
        v = _normalize(u.dot(w))
        u = _normalize(w.dot(v))
    return u.dot(w).dot(v), u


def test_spectral_normalization_forward_matches_power_iteration():
    link = L.Linear(3, 4)
    hook = link_hooks.SpectralNormalization()
    link.add_hook(hook)
    assert 'W_u' in link._persistent
    u0 = link.W_u.copy()
    assert u0.shape == (4,) and u0.dtype == numpy.float32
    w = link.W.array.copy()
    x = _x()
    y = link(x)
    sigma, u1 = _reference_sigma(w.astype(numpy.float64), u0)
    expected = x.dot((w / sigma).T) + link.b.array
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-5, atol=1e-6)
    # Training mode: u moved on; W is the Parameter again.
    numpy.testing.assert_allclose(link.W_u, u1, rtol=1e-5)
    assert isinstance(link.W, chainer.Parameter)
    link.cleargrads()
    F.sum(y).backward()
    assert link.W.grad is not None and numpy.isfinite(link.W.grad).all()


def test_spectral_normalization_keeps_u_in_test_mode():
    link = L.Linear(3, 4)
    link.add_hook(link_hooks.SpectralNormalization())
    u0 = link.W_u.copy()
    with chainer.using_config('train', False):
        y1 = link(_x())
        y2 = link(_x())
    numpy.testing.assert_array_equal(link.W_u, u0)
    numpy.testing.assert_array_equal(y1.array, y2.array)


def test_spectral_normalization_converges_to_unit_spectral_norm():
    link = L.Linear(5, 6)
    hook = link_hooks.SpectralNormalization(n_power_iteration=3)
    link.add_hook(hook)
    for _ in range(10):
        link(_x((1, 5)))
    normalized = hook.normalize_weight(link).array
    assert numpy.linalg.svd(normalized, compute_uv=False)[0] == \
        pytest.approx(1.0, rel=1e-4)


def test_spectral_normalization_gamma_and_factor():
    link = L.Linear(3, 4)
    w = link.W.array.copy()
    hook = link_hooks.SpectralNormalization(use_gamma=True, factor=2.0)
    link.add_hook(hook)
    top = numpy.linalg.svd(w, compute_uv=False)[0]
    assert link.gamma.shape == ()
    assert float(link.gamma.array) == pytest.approx(top, rel=1e-5)
    assert '/gamma' in dict(link.namedparams())
    u0 = link.W_u.copy()
    x = _x()
    y = link(x)
    sigma, _ = _reference_sigma(w.astype(numpy.float64), u0)
    expected = x.dot((top * w / (sigma / 2.0)).T) + link.b.array
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-4, atol=1e-5)
    link.cleargrads()
    F.sum(y).backward()
    assert link.gamma.grad is not None
    link.delete_hook(hook.name)
    assert not hasattr(link, 'gamma') and not hasattr(link, 'W_u')


def test_spectral_normalization_lazy_weight():
    link = L.Linear(None, 4)
    link.add_hook(link_hooks.SpectralNormalization())
    assert not hasattr(link, 'W_u')
    y = link(_x((2, 3, 2)))
    assert link.W.shape == (4, 6)
    assert link.W_u.shape == (4,)
    assert y.shape == (2, 4)


def test_spectral_normalization_u_is_saved(tmp_path):
    link = L.Linear(3, 4)
    link.add_hook(link_hooks.SpectralNormalization())
    link(_x())
    path = str(tmp_path / 'm.npz')
    save_npz(path, link)
    other = L.Linear(3, 4)
    other.add_hook(link_hooks.SpectralNormalization())
    load_npz(path, other)
    numpy.testing.assert_array_equal(other.W_u, link.W_u)


class TensorWeight(chainer.Link):
    """A link with a 3-D weight used as a bank of matrices."""

    def __init__(self, shape):
        super().__init__()
        with self.init_scope():
            self.W = chainer.Parameter(_x(shape, seed=2))

    def forward(self, x):
        return F.sum(self.W * x)


class DeconvolutionLike(TensorWeight):
    pass


DeconvolutionLike.__name__ = 'Deconvolution2D'


def test_spectral_normalization_reshapes_higher_rank_weights():
    link = TensorWeight((4, 2, 3))
    hook = link_hooks.SpectralNormalization(n_power_iteration=20)
    link.add_hook(hook)
    assert hook.axis == 0 and link.W_u.shape == (4,)
    link(numpy.float32(1.0))
    normalized = hook.normalize_weight(link).array.reshape(4, 6)
    assert numpy.linalg.svd(normalized, compute_uv=False)[0] == \
        pytest.approx(1.0, rel=1e-3)


def test_spectral_normalization_deconvolution_uses_axis_1():
    link = DeconvolutionLike((4, 2, 3))
    hook = link_hooks.SpectralNormalization(n_power_iteration=20)
    link.add_hook(hook)
    assert hook.axis == 1 and link.W_u.shape == (2,)
    link(numpy.float32(1.0))
    w = hook.normalize_weight(link).array.transpose(1, 0, 2).reshape(2, 12)
    assert numpy.linalg.svd(w, compute_uv=False)[0] == \
        pytest.approx(1.0, rel=1e-3)


def test_spectral_normalization_errors():
    hook = link_hooks.SpectralNormalization()
    with pytest.raises(NotImplementedError):
        with hook:
            pass
    with pytest.raises(ValueError, match='no weight'):
        L.Linear(3, 4).add_hook(
            link_hooks.SpectralNormalization(weight_name='V'))
    with pytest.raises(ValueError):
        link_hooks.SpectralNormalization(n_power_iteration=0)


def test_top_level_names():
    from chainer_core import link_hook
    assert chainer.LinkHook is link_hook.LinkHook
