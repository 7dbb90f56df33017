"""Link, Chain and ChainList against Chainer v7's semantics."""
import io
import pickle
import warnings

import numpy
import pytest

import chainer_core as chainer
from backend_api import DeviceSpecError
from chainer_core import initializers
from chainer_core import optimizers
from chainer_core import serializers
from chainer_core.link import Chain, ChainList, Link
from chainer_core.link_hook import LinkHook
from chainer_core.sequential import Sequential
import chainer_core.links as L


class Affine(Link):
    """A link with two parameters and two persistents."""

    def __init__(self, n_in=3, n_out=2):
        super().__init__()
        with self.init_scope():
            self.W = chainer.Parameter(initializers.Normal(1.0),
                                       (n_out, n_in))
            self.b = chainer.Parameter(0, (n_out,))
        self.add_persistent('count', 0)
        self.add_persistent('stat', numpy.zeros(n_out, numpy.float32))
        self.plain = 'not registered'

    def forward(self, x):
        return chainer.functions.linear(x, self.W, self.b)


class Net(Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = Affine(3, 4)
            self.l2 = Affine(4, 2)
            self.p = chainer.Parameter(numpy.ones(2, numpy.float32))

    def forward(self, x):
        return self.l2(self.l1(x)) * self.p


def _x():
    return numpy.arange(6, dtype=numpy.float32).reshape(2, 3) / 6


def _names(pairs):
    return [name for name, _ in pairs]


class TestRegistration:

    def test_init_scope_registers_parameters_only_inside(self):
        link = Link()
        with link.init_scope():
            assert link.within_init_scope
            link.W = chainer.Parameter(0, (2,))
        assert not link.within_init_scope
        link.V = chainer.Parameter(0, (2,))
        assert [p.name for p in link.params()] == ['W']
        assert link.W.name == 'W'

    def test_init_scope_restored_after_error(self):
        link = Link()
        with pytest.raises(RuntimeError):
            with link.init_scope():
                raise RuntimeError
        assert not link.within_init_scope

    def test_delattr_unregisters(self):
        link = Affine()
        del link.W
        del link.count
        assert _names(link.namedparams()) == ['/b']
        assert link._persistent == {'stat'}

    def test_add_param(self):
        link = Link()
        with pytest.warns(DeprecationWarning):
            link.add_param('W', (2, 3), dtype=numpy.float64)
        assert link.W.shape == (2, 3)
        assert link.W.dtype == numpy.float64
        assert numpy.isnan(link.W.array).all()
        with pytest.warns(DeprecationWarning):
            link.add_param('u')
        assert link.u.array is None
        with pytest.warns(DeprecationWarning):
            link.add_param('c', 3, initializer=initializers.One())
        numpy.testing.assert_array_equal(link.c.array, numpy.ones(3))
        with pytest.raises(AttributeError), \
                pytest.warns(DeprecationWarning):
            link.add_param('W', (1,))

    def test_params_in_constructor(self):
        with pytest.warns(DeprecationWarning):
            link = Link(W=(2, 3), v=3, u=((4,), numpy.float16))
        assert link.W.shape == (2, 3)
        assert link.v.shape == (3,)
        assert link.u.dtype == numpy.float16

    def test_add_persistent(self):
        link = Link()
        link.add_persistent('s', 3)
        assert link.s == 3 and link._persistent == {'s'}
        with pytest.raises(AttributeError):
            link.add_persistent('s', 4)

    def test_register_persistent(self):
        link = Link()
        link.x = numpy.zeros(2)
        link.register_persistent('x')
        assert 'x' in link._persistent
        with pytest.raises(AttributeError):
            link.register_persistent('nothing')

    def test_register_persistent_turns_a_parameter_into_a_persistent(self):
        link = Affine()
        link.register_persistent('b')
        assert _names(link.namedparams()) == ['/W']
        assert 'b' in link._persistent

    def test_parameter_assigned_over_persistent(self):
        link = Link()
        link.add_persistent('a', 1)
        with link.init_scope():
            link.a = chainer.Parameter(0, (1,))
        assert link._persistent == set() and link._params == {'a'}

    def test_chain_registers_links_inside_scope(self):
        chain = Chain()
        with chain.init_scope():
            chain.a = Affine()
        chain.b = Affine()
        assert list(chain.children()) == [chain.a]
        assert chain.a.name == 'a'
        assert chain['a'] is chain.a

    def test_chain_rejects_existing_attribute(self):
        chain = Net()
        with pytest.raises(AttributeError):
            with chain.init_scope():
                chain.l1 = Affine()

    def test_chain_add_link(self):
        chain = Chain()
        with pytest.warns(DeprecationWarning):
            chain.add_link('x', Affine())
        assert chain.x.name == 'x'
        with pytest.warns(DeprecationWarning), pytest.raises(TypeError):
            chain.add_link('y', object())
        with pytest.warns(DeprecationWarning), pytest.raises(AttributeError):
            chain.add_link('x', Affine())
        with pytest.warns(DeprecationWarning):
            chain2 = Chain(a=Affine(), b=Affine())
        assert sorted(_names(chain2.namedlinks(skipself=True))) == \
            ['/a', '/b']

    def test_chain_delattr_removes_child(self):
        chain = Net()
        del chain.l1
        assert _names(chain.namedlinks()) == ['/', '/l2']

    def test_chainlist(self):
        a, b = Affine(), Affine()
        cl = ChainList(a)
        cl.add_link(b)
        assert len(cl) == 2 and cl[0] is a and cl[1] is b
        assert list(cl) == [a, b]
        assert (a.name, b.name) == ('0', '1')
        assert list(cl.children()) == [a, b]
        with pytest.raises(TypeError):
            cl.append(3)
        with pytest.raises(TypeError):
            with cl.init_scope():
                cl.c = Affine()


class TestTraversal:

    def test_namedparams_paths(self):
        net = Net()
        assert _names(net.namedparams()) == [
            '/p', '/l1/W', '/l1/b', '/l2/W', '/l2/b']
        assert [p.shape for p in net.params()] == [
            (2,), (4, 3), (4,), (2, 4), (2,)]

    def test_include_uninit(self):
        chain = Chain()
        with chain.init_scope():
            chain.lin = L.Linear(None, 2)
        assert _names(chain.namedparams()) == ['/lin/W', '/lin/b']
        assert _names(chain.namedparams(include_uninit=False)) == ['/lin/b']
        assert len(list(chain.params(include_uninit=False))) == 1

    def test_namedlinks(self):
        outer = Chain()
        with outer.init_scope():
            outer.net = Net()
            outer.seq = ChainList(Affine(), Affine())
        assert _names(outer.namedlinks()) == [
            '/', '/net', '/net/l1', '/net/l2', '/seq', '/seq/0', '/seq/1']
        assert _names(outer.namedlinks(skipself=True))[0] == '/net'
        assert list(outer.links())[0] is outer
        assert list(outer.links(skipself=True))[0] is outer.net
        assert list(outer.children()) == [outer.net, outer.seq]
        assert _names(outer.namedparams())[-2:] == ['/seq/1/W', '/seq/1/b']

    def test_link_has_no_children(self):
        assert list(Affine().children()) == []
        assert _names(Affine().namedlinks()) == ['/']

    def test_count_params(self):
        assert Net().count_params() == 2 + 12 + 4 + 8 + 2
        lazy = L.Linear(None, 3)
        with pytest.warns(UserWarning):
            assert lazy.count_params() == 3


class TestGradients:

    def _backward(self, net):
        y = net(_x())
        chainer.functions.sum(y).backward()

    def test_cleargrads(self):
        net = Net()
        assert numpy.isnan(net.l1.W.grad).all()
        net.cleargrads()
        assert all(p.grad is None for p in net.params())
        self._backward(net)
        assert all(p.grad is not None for p in net.params())

    def test_zerograds(self):
        net = Net()
        with pytest.warns(DeprecationWarning):
            net.zerograds()
        for p in net.params():
            numpy.testing.assert_array_equal(p.grad, numpy.zeros(p.shape))

    def test_addgrads(self):
        net1, net2 = Net(), Net()
        net2.copyparams(net1)
        for net in (net1, net2):
            net.cleargrads()
            self._backward(net)
        expected = {n: p.grad.copy() * 2 for n, p in net1.namedparams()}
        net1.addgrads(net2)
        for name, p in net1.namedparams():
            numpy.testing.assert_allclose(p.grad, expected[name])

    def test_gradient_reaches_every_parameter(self):
        net = Net()
        net.cleargrads()
        self._backward(net)
        # d sum(y) / d b2 = p for each of the 2 rows.
        net.p.array[...] = [2, 3]
        net.cleargrads()
        self._backward(net)
        numpy.testing.assert_allclose(net.l2.b.grad, [4, 6])
        numpy.testing.assert_allclose(net.p.grad,
                                      net.l2(net.l1(_x())).array.sum(0),
                                      rtol=1e-6)


class TestUpdateFlags:

    def test_enable_disable_update(self):
        net = Net()
        opt = optimizers.SGD(lr=0.5).setup(net)
        assert net.update_enabled
        net.l1.disable_update()
        assert not net.l1.update_enabled and net.update_enabled
        before = {n: p.array.copy() for n, p in net.namedparams()}
        net.cleargrads()
        chainer.functions.sum(net(_x())).backward()
        opt.update()
        for name, p in net.namedparams():
            changed = not numpy.array_equal(before[name], p.array)
            assert changed == (not name.startswith('/l1/')), name
        net.enable_update()
        assert net.l1.update_enabled

    def test_update_enabled_without_optimizer(self):
        assert not Net().update_enabled


class TestCopy:

    def test_share(self):
        net = Net()
        net.cleargrads()
        chainer.functions.sum(net(_x())).backward()
        c = net.copy()
        assert c is not net and c.name is None
        assert c.l1 is not net.l1 and c.l1.name == 'l1'
        for (n1, p1), (n2, p2) in zip(net.namedparams(), c.namedparams()):
            assert n1 == n2 and p1 is not p2
            assert p1.array is p2.array
            assert p2.grad is None and p1.grad is not None
        assert c.l1.stat is net.l1.stat
        net.l1.W.array[...] = 5
        assert (c.l1.W.array == 5).all()

    def test_share_keeps_names_of_parameters(self):
        c = Affine().copy('share')
        assert c.W.name == 'W'

    def test_copy(self):
        net = Net()
        c = net.copy(mode='copy')
        for (_, p1), (_, p2) in zip(net.namedparams(), c.namedparams()):
            assert p1.array is not p2.array
            numpy.testing.assert_array_equal(p1.array, p2.array)
        c.l1.W.array[...] = 7
        assert not (net.l1.W.array == 7).any()
        assert c.l1.stat is not net.l1.stat
        assert c.name is None and c.l2.name == 'l2'

    def test_init(self):
        net = Net()
        with chainer.using_config('dtype', numpy.float32):
            c = net.copy(mode='init')
        assert not numpy.array_equal(c.l1.W.array, net.l1.W.array)
        assert c.l1.W.shape == net.l1.W.shape
        numpy.testing.assert_array_equal(c.l1.b.array, numpy.zeros(4))

    def test_init_keeps_uninitialized(self):
        lin = L.Linear(None, 3)
        c = lin.copy('init')
        assert c.W.array is None
        c(numpy.ones((1, 5), numpy.float32))
        assert c.W.shape == (3, 5) and lin.W.array is None

    def test_bad_mode(self):
        with pytest.raises(ValueError):
            Net().copy('deep')

    def test_chainlist_copy(self):
        cl = ChainList(Affine(), Affine())
        for mode in ('share', 'copy', 'init'):
            c = cl.copy(mode)
            assert len(c) == 2 and c[0] is not cl[0]
            assert [x.name for x in c] == ['0', '1']
            assert (c[0].W.array is cl[0].W.array) == (mode == 'share')


class TestCopyparams:

    def test_copyparams(self):
        a, b = Net(), Net()
        a.l1.add_persistent('extra', {'k': [1]})
        b.l1.add_persistent('extra', None)
        a.l1.stat[...] = 3
        a.l1.count = 9
        b.copyparams(a)
        for (_, pa), (_, pb) in zip(a.namedparams(), b.namedparams()):
            assert pa.array is not pb.array
            numpy.testing.assert_array_equal(pa.array, pb.array)
        numpy.testing.assert_array_equal(b.l1.stat, a.l1.stat)
        assert b.l1.stat is not a.l1.stat
        assert b.l1.count == 9 and b.l1.extra == {'k': [1]}

    def test_copyparams_without_persistents(self):
        a, b = Affine(), Affine()
        a.stat[...] = 3
        b.copyparams(a, copy_persistent=False)
        numpy.testing.assert_array_equal(b.W.array, a.W.array)
        assert (b.stat == 0).all()

    def test_copyparams_initializes_lazy(self):
        a, b = L.Linear(3, 2), L.Linear(None, 2)
        b.copyparams(a)
        numpy.testing.assert_array_equal(b.W.array, a.W.array)

    def test_chainlist_copyparams(self):
        a, b = ChainList(Affine()), ChainList(Affine())
        b.copyparams(a)
        numpy.testing.assert_array_equal(b[0].W.array, a[0].W.array)


class TestDevice:

    def test_to_device_numpy(self):
        net = Net()
        assert net.to_device('@numpy') is net
        assert net.device.name == '@numpy'
        assert net.xp is numpy
        for link in net.links():
            assert link.device.name == '@numpy'
        assert type(net.l1.stat) is numpy.ndarray

    def test_to_cpu(self):
        net = Net()
        assert net.to_cpu() is net
        assert net.l1.device.name == '@numpy'
        assert net.to_device(chainer.get_device('@numpy')) is net

    def test_lazy_parameter_follows_device(self):
        lin = L.Linear(None, 2).to_device('@numpy')
        lin(numpy.ones((1, 4), numpy.float32))
        assert type(lin.W.array) is numpy.ndarray


class TestRepeat:

    def test_repeat_modes(self):
        lin = L.Linear(3, 3)
        for mode in ('init', 'copy', 'share'):
            seq = lin.repeat(3, mode)
            assert isinstance(seq, Sequential) and len(seq) == 3
            assert all(s is not lin for s in seq)
            same = [numpy.array_equal(s.W.array, lin.W.array) for s in seq]
            assert all(same) == (mode != 'init')
            shared = [s.W.array is lin.W.array for s in seq]
            assert all(shared) == (mode == 'share')
        assert _names(seq.namedparams())[:2] == ['/0/W', '/0/b']

    def test_repeat_default_is_init(self):
        lin = L.Linear(4, 4)
        seq = lin.repeat(2)
        assert not numpy.array_equal(seq[0].W.array, seq[1].W.array)

    def test_repeat_nothing(self):
        seq = L.Linear(2, 2).repeat(0)
        assert isinstance(seq, Sequential) and len(seq) == 0

    def test_repeat_bad_mode(self):
        with pytest.raises(ValueError):
            L.Linear(2, 2).repeat(2, 'deep')

    def test_repeat_runs(self):
        seq = L.Linear(3, 3).repeat(2)
        y = seq(_x())
        expected = _x()
        for lin in seq:
            expected = expected.dot(lin.W.array.T) + lin.b.array
        numpy.testing.assert_allclose(y.array, expected, rtol=1e-6)


class TestSerialization:

    def test_keys(self):
        outer = Chain()
        with outer.init_scope():
            outer.net = Net()
            outer.cl = ChainList(Affine())
        buf = io.BytesIO()
        serializers.save_npz(buf, outer)
        buf.seek(0)
        with numpy.load(buf) as npz:
            keys = sorted(npz.files)
        assert keys == sorted([
            'net/p', 'net/l1/W', 'net/l1/b', 'net/l1/count', 'net/l1/stat',
            'net/l2/W', 'net/l2/b', 'net/l2/count', 'net/l2/stat',
            'cl/0/W', 'cl/0/b', 'cl/0/count', 'cl/0/stat'])

    def test_round_trip(self, tmp_path):
        src, dst = Net(), Net()
        src.l1.stat[...] = [1, 2, 3, 4]
        src.l2.count = 11
        path = tmp_path / 'net.npz'
        serializers.save_npz(str(path), src)
        serializers.load_npz(str(path), dst)
        for (n, ps), (_, pd) in zip(src.namedparams(), dst.namedparams()):
            numpy.testing.assert_array_equal(ps.array, pd.array, err_msg=n)
        numpy.testing.assert_array_equal(dst.l1.stat, [1, 2, 3, 4])
        assert dst.l2.count == 11 and isinstance(dst.l2.count, int)
        numpy.testing.assert_array_equal(dst(_x()).array, src(_x()).array)

    def test_load_into_lazy_link(self, tmp_path):
        src = L.Linear(5, 2)
        dst = L.Linear(None, 2)
        path = tmp_path / 'lin.npz'
        serializers.save_npz(str(path), src)
        serializers.load_npz(str(path), dst)
        numpy.testing.assert_array_equal(dst.W.array, src.W.array)

    def test_save_uninitialized_and_load(self, tmp_path):
        src = L.Linear(None, 2)
        path = tmp_path / 'lazy.npz'
        serializers.save_npz(str(path), src)
        dst = L.Linear(None, 2)
        serializers.load_npz(str(path), dst)
        assert dst.W.array is None

    def test_serialize_visits_children_with_prefix(self):
        seen = []

        class Recorder:
            def __init__(self, path=''):
                self.path = path

            def __getitem__(self, key):
                return Recorder(self.path + key + '/')

            def __call__(self, key, value):
                seen.append(self.path + key)
                return value

        Net().serialize(Recorder())
        assert sorted(seen) == sorted([
            'p', 'l1/W', 'l1/b', 'l1/count', 'l1/stat', 'l2/W', 'l2/b',
            'l2/count', 'l2/stat'])

    def test_pickle(self):
        net = Net()
        net2 = pickle.loads(pickle.dumps(net))
        numpy.testing.assert_array_equal(net2(_x()).array, net(_x()).array)
        assert _names(net2.namedparams()) == _names(net.namedparams())


class RecordingHook(LinkHook):

    def __init__(self, name, log):
        self.name = name
        self.log = log

    def added(self, link):
        self.log.append((self.name, 'added', link))

    def deleted(self, link):
        self.log.append((self.name, 'deleted', link))

    def forward_preprocess(self, args):
        self.log.append((self.name, 'pre', args.link, args.forward_name,
                         len(args.args), dict(args.kwargs)))

    def forward_postprocess(self, args):
        self.log.append((self.name, 'post', args.link, args.out))


class TestLinkHooks:

    def test_local_hook(self):
        log = []
        lin = L.Linear(3, 2)
        hook = RecordingHook('rec', log)
        assert lin.add_hook(hook) is lin
        assert log == [('rec', 'added', lin)]
        y = lin(_x(), n_batch_axes=1)
        assert log[1] == ('rec', 'pre', lin, 'forward', 1,
                          {'n_batch_axes': 1})
        assert log[2][:3] == ('rec', 'post', lin) and log[2][3] is y
        lin.delete_hook('rec')
        assert log[-1] == ('rec', 'deleted', lin)
        lin(_x())
        assert len(log) == 4

    def test_hook_name_and_errors(self):
        lin = L.Linear(3, 2)
        lin.add_hook(RecordingHook('a', []), name='first')
        assert list(lin.local_link_hooks) == ['first']
        with pytest.raises(KeyError):
            lin.add_hook(RecordingHook('b', []), name='first')
        with pytest.raises(KeyError):
            lin.delete_hook('missing')
        with pytest.raises(TypeError):
            lin.add_hook(lambda args: None)

    def test_global_hook(self):
        log = []
        net = Net()
        with RecordingHook('g', log):
            net(_x())
        assert log[0] == ('g', 'added', None)
        assert log[-1] == ('g', 'deleted', None)
        pre = [e[2] for e in log if e[1] == 'pre']
        post = [e[2] for e in log if e[1] == 'post']
        assert pre == [net, net.l1, net.l2]
        assert post == [net.l1, net.l2, net]
        log.clear()
        net(_x())
        assert log == []

    def test_global_hook_twice_is_an_error(self):
        hook = RecordingHook('g', [])
        with hook:
            with pytest.raises(KeyError):
                with RecordingHook('g', []):
                    pass

    def test_global_and_local_order(self):
        log = []
        lin = L.Linear(3, 2)
        lin.add_hook(RecordingHook('local', log))
        with RecordingHook('global', log):
            lin(_x())
        order = [(e[0], e[1]) for e in log if e[1] in ('pre', 'post')]
        assert order == [('global', 'pre'), ('local', 'pre'),
                         ('global', 'post'), ('local', 'post')]

    def test_base_hook_does_nothing(self):
        lin = L.Linear(3, 2)
        lin.add_hook(LinkHook())
        y = lin(_x())
        assert y.shape == (2, 2)


class TestLazyInitialization:

    def test_linear(self):
        lin = L.Linear(None, 4)
        assert lin.W.array is None
        y = lin(numpy.ones((2, 3, 2), numpy.float32))
        assert lin.W.shape == (4, 6) and y.shape == (2, 4)
        assert lin.W.dtype == numpy.float32

    def test_linear_short_form(self):
        lin = L.Linear(4)
        assert lin.out_size == 4 and lin.in_size is None
        lin(numpy.ones((2, 5), numpy.float32))
        assert lin.W.shape == (4, 5)

    def test_lazy_gradient(self):
        lin = L.Linear(None, 2)
        lin.cleargrads()
        y = lin(_x())
        chainer.functions.sum(y).backward()
        numpy.testing.assert_allclose(lin.W.grad,
                                      numpy.tile(_x().sum(0), (2, 1)),
                                      rtol=1e-6)


class TestStr:

    def test_link(self):
        assert str(L.Linear(3, 2)) == \
            'Linear(in_size=3, out_size=2, nobias=False)'
        assert repr(L.Linear(None, 2, nobias=True)) == \
            'Linear(in_size=None, out_size=2, nobias=True)'
        assert str(Link()) == 'Link()'

    def test_chain(self):
        chain = Chain()
        assert str(chain) == 'Chain()'
        with chain.init_scope():
            chain.b = L.Linear(3, 2)
            chain.a = ChainList(L.Linear(2, 2))
        assert str(chain) == (
            'Chain(\n'
            '  (a): ChainList(\n'
            '    (0): Linear(in_size=2, out_size=2, nobias=False),\n'
            '  ),\n'
            '  (b): Linear(in_size=3, out_size=2, nobias=False),\n'
            ')')
        assert repr(chain) == str(chain)

    def test_chainlist(self):
        assert str(ChainList()) == 'ChainList()'


class TestForward:

    def test_forward_not_implemented(self):
        with pytest.raises(NotImplementedError):
            Link()(1)

    def test_call_passes_arguments(self):
        class Echo(Link):
            def forward(self, *args, **kwargs):
                return args, kwargs

        assert Echo()(1, 2, k=3) == ((1, 2), {'k': 3})

    def test_no_warnings_on_plain_use(self):
        with warnings.catch_warnings():
            warnings.simplefilter('error')
            net = Net()
            net.cleargrads()
            net(_x())
            net.copy()


class _WithBuffer(chainer.Chain):
    """A user link holding an array that is neither a parameter nor a
    persistent, moved through device_resident_accept as Chainer documents.
    """

    def __init__(self):
        super().__init__()
        self.buffer = numpy.arange(3, dtype=numpy.float32)
        with self.init_scope():
            self.fc = chainer.links.Linear(2, 3)

    def device_resident_accept(self, visitor):
        super().device_resident_accept(visitor)
        self.buffer = visitor.visit_array(self.buffer)


class _Counter(chainer.device_resident.DeviceResidentsVisitor):

    def __init__(self):
        self.residents, self.arrays, self.variables = [], 0, 0

    def visit_device_resident(self, device_resident):
        self.residents.append(type(device_resident).__name__)

    def visit_array(self, arr):
        self.arrays += 1
        return arr

    def visit_variable(self, param):
        self.variables += 1


class TestDeviceResident:

    def test_links_are_device_residents(self):
        assert isinstance(chainer.links.Linear(2, 3), chainer.DeviceResident)

    def test_visitor_sees_every_resident_parameter_and_array(self):
        counter = _Counter()
        _WithBuffer().device_resident_accept(counter)
        assert counter.residents == ['_WithBuffer', 'Linear']
        assert counter.variables == 2
        assert counter.arrays == 1

    @pytest.mark.parametrize('spec', ['@numpy', '@intel64', 'native:0'])
    def test_extra_arrays_move_with_the_link(self, spec):
        try:
            device = chainer.get_device(spec)
        except DeviceSpecError as e:
            pytest.skip(str(e))
        link = _WithBuffer().to_device(device)
        assert link.device == device
        assert link.fc.device == device
        assert chainer.backend.get_device_from_array(link.buffer) == device
        assert chainer.backend.get_device_from_array(link.fc.W.array) == \
            device
