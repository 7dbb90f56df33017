"""chainer_mn in one process (MPI as a singleton, no launcher): the add-on
registration, argument errors, and the one-process communicators."""
import json
import subprocess
import sys
import warnings

import numpy
import pytest

import chainer_core as chainer
import chainer_core.links as L
import chainer_mn


def _python(code):
    proc = subprocess.run([sys.executable, '-c', code], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_import_does_not_initialise_mpi():
    out = _python(
        'import sys, chainer_mn, chainer_core\n'
        'chainer_core.get_device("@numpy")\n'
        'print(chainer_core.config.mn_abort_on_exception)\n'
        'print("mpi4py.MPI" in sys.modules)\n')
    assert out.split() == ['True', 'False']


def test_info_lists_the_addon():
    out = _python('import sys\nfrom chainer_core.__main__ import main\n'
                  'sys.exit(main(["info", "--json"]))')
    info = json.loads(out)
    text = json.dumps(info)
    assert 'chainer-mn' in text
    assert 'distributed training over MPI' in text


def test_entry_point_declares_the_api_version():
    from chainer_mn import _addon
    assert _addon.api_version == (2, 0)
    assert _addon.chainer_core_addon_info()['name'] == 'chainer-mn'


def test_default_communicator_names_what_is_missing():
    import importlib.util
    from chainer_mn.communicators import pure_nccl_communicator
    reason = pure_nccl_communicator.unavailable_reason()
    if not reason:
        pytest.skip("'pure_nccl' is available here")
    with pytest.raises(RuntimeError) as e:
        chainer_mn.create_communicator()
    msg = str(e.value)
    assert "'pure_nccl'" in msg
    assert reason in msg
    if importlib.util.find_spec('chainer_cuda') is None:
        assert 'chainer-cuda' in msg
    assert "create_communicator('flat')" in msg


def test_pure_nccl_checks_its_arguments_before_the_gpu():
    for bad in ('int32', numpy.bool_, 'no-such-dtype'):
        with pytest.raises(ValueError, match='create_communicator: '
                           'allreduce_grad_dtype must be a float dtype'):
            chainer_mn.create_communicator('pure_nccl',
                                           allreduce_grad_dtype=bad)
    from chainer_mn.communicators import pure_nccl_communicator
    reason = pure_nccl_communicator.unavailable_reason()
    if reason:
        # Valid arguments reach the check of what is missing.
        with pytest.raises(RuntimeError, match='NCCL on GPUs'):
            chainer_mn.create_communicator(
                'pure_nccl', allreduce_grad_dtype=numpy.float16,
                batched_copy=True)


def test_nccl_batch_normalization_needs_pure_nccl(comm):
    with pytest.raises(ValueError, match="'nccl' needs the 'pure_nccl' "
                       'communicator, got FlatCommunicator'):
        chainer_mn.links.MultiNodeBatchNormalization(
            3, comm, communication_backend='nccl')


@pytest.mark.parametrize('name,exc,words', [
    ('hierarchical', ValueError, 'removed in Chainer v7'),
    ('two_dimensional', ValueError, 'removed in Chainer v7'),
    ('fast', ValueError, "unknown communicator_name 'fast'")])
def test_bad_communicator_names(name, exc, words):
    with pytest.raises(exc) as e:
        chainer_mn.create_communicator(name)
    assert words in str(e.value)
    assert 'flat' in str(e.value)


def test_bad_arguments():
    with pytest.raises(TypeError, match='unexpected arguments bogus'):
        chainer_mn.create_communicator('flat', bogus=1)
    with pytest.raises(ValueError, match='float dtype'):
        chainer_mn.create_communicator('flat', allreduce_grad_dtype='int32')
    with pytest.raises(TypeError, match='mpi4py communicator'):
        chainer_mn.create_communicator('flat', mpi_comm=3)


@pytest.fixture
def comm():
    return chainer_mn.create_communicator('flat')


def test_one_process(comm):
    assert (comm.rank, comm.size) == (0, 1)
    assert (comm.intra_rank, comm.intra_size) == (0, 1)
    assert (comm.inter_rank, comm.inter_size) == (0, 1)
    # There is no one to wait for: the abort hook is not installed.
    assert not chainer_mn.global_except_hook.is_installed()
    x = numpy.arange(6.).reshape(2, 3)
    numpy.testing.assert_array_equal(comm.allreduce(x), x)
    numpy.testing.assert_array_equal(comm.bcast(x), x)
    assert len(comm.allgather(x)) == 1
    numpy.testing.assert_array_equal(comm.scatter([x]), x)
    assert comm.bcast_obj({'a': 1}) == {'a': 1}
    assert comm.allreduce_obj(3) == 3


def test_one_process_mean_grad_keeps_gradients(comm):
    model = L.Linear(3, 2)
    model.cleargrads()
    model.W.grad = numpy.ones((2, 3), numpy.float32)
    comm.multi_node_mean_grad(model)
    numpy.testing.assert_array_equal(model.W.grad, numpy.ones((2, 3)))
    assert model.b.grad is None
    comm.multi_node_mean_grad(model, zero_fill=True)
    numpy.testing.assert_array_equal(model.b.grad, numpy.zeros(2))


def test_multi_node_optimizer_wraps_the_optimizer(comm):
    model = L.Linear(3, 2)
    adam = chainer.optimizers.Adam(alpha=0.01)
    opt = chainer_mn.create_multi_node_optimizer(adam, comm).setup(model)
    # The trainer's updater takes it for an optimizer.
    assert isinstance(opt, chainer.Optimizer)
    assert opt.target is model and opt.alpha == 0.01
    opt.alpha = 0.02
    assert adam.alpha == 0.02
    x = numpy.ones((4, 3), numpy.float32)

    def loss():
        return chainer.functions.sum(model(x))
    before = model.W.array.copy()
    opt.update(loss)  # the first update broadcasts instead of updating
    numpy.testing.assert_array_equal(model.W.array, before)
    assert adam.t == 0
    opt.update(loss)
    assert adam.t == 1
    assert not numpy.array_equal(model.W.array, before)
    updater = chainer.training.updaters.StandardUpdater(
        chainer.iterators.SerialIterator([(x[0],)] * 4, 2), opt)
    assert updater.get_optimizer('main') is opt


def test_multi_node_optimizer_arguments(comm):
    with pytest.raises(ValueError, match="double_buffering=True needs the "
                       "'pure_nccl' communicator .*FlatCommunicator does "
                       "not support double buffering"):
        chainer_mn.create_multi_node_optimizer(
            chainer.optimizers.SGD(), comm, double_buffering=True)
    with pytest.raises(TypeError, match='chainer_mn communicator'):
        chainer_mn.create_multi_node_optimizer(chainer.optimizers.SGD(),
                                               object())


def test_function_arguments(comm):
    import chainer_mn.functions as mnF
    x = chainer.Variable(numpy.ones(2, numpy.float32))
    with pytest.raises(ValueError, match='this process itself'):
        mnF.send(x, comm, rank=0)
    with pytest.raises(ValueError, match='rank must be in'):
        mnF.recv(comm, rank=5)
    with pytest.raises(ValueError, match='root must be in'):
        mnF.bcast(comm, x, root=1)
    with pytest.raises(ValueError, match='1 variables'):
        mnF.alltoall(comm, [x, x])
    y, = mnF.allgather(comm, x)
    numpy.testing.assert_array_equal(y.array, x.array)


def test_checkpointer_arguments(comm):
    with pytest.raises(ValueError, match='name'):
        chainer_mn.create_multi_node_checkpointer('a.b', comm)
    with pytest.raises(ValueError, match='cp_interval'):
        chainer_mn.create_multi_node_checkpointer('a', comm, cp_interval=0)


def test_checkpointer_without_trainer(comm, tmp_path):
    model = L.Linear(3, 2)
    cp = chainer_mn.create_multi_node_checkpointer(
        'run', comm, cp_interval=2, gc_interval=1, path=str(tmp_path))
    for it in (1, 2, 3):
        model.W.array[...] = it
        cp.save(model, it)
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ['run.0.2', 'run.0.3']
    (tmp_path / 'run.0.3').write_bytes(b'truncated')
    fresh = L.Linear(3, 2)
    assert cp.maybe_load(fresh) == 2
    numpy.testing.assert_array_equal(fresh.W.array, numpy.full((2, 3), 2))
    assert 'avg=' in cp.get_stats()
    cp.finalize()
    assert list(tmp_path.iterdir()) == []


def test_evaluator_of_one_process(comm):
    model = L.Classifier(L.Linear(2, 3))
    data = chainer.datasets.TupleDataset(
        numpy.ones((4, 2), numpy.float32), numpy.zeros(4, numpy.int32))
    plain = chainer.training.extensions.Evaluator(
        chainer.iterators.SerialIterator(data, 2, repeat=False), model)
    expected = plain()
    ev = chainer_mn.create_multi_node_evaluator(
        chainer.training.extensions.Evaluator(
            chainer.iterators.SerialIterator(data, 2, repeat=False), model),
        comm)
    assert ev() == pytest.approx(expected)


def test_abort_hook_is_documented_and_opt_out():
    doc = chainer_mn.global_except_hook.__doc__
    assert 'Abort' in doc and 'mn_abort_on_exception' in doc
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        chainer_mn.global_except_hook.remove_hook()
