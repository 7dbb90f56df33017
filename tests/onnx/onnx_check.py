"""What the ONNX tests share: the skip when onnx or onnxruntime is
missing, running an exported model in ONNX Runtime, and comparing it with
the run it was exported from."""
import numpy
import pytest

import chainer_core as chainer

# A submodule: a directory named onnx on sys.path (this one) must not pass
# for the package.
pytest.importorskip('onnx.helper', reason='onnx is not installed (pip '
                    'install chainer-core[onnx])')
ort = pytest.importorskip(
    'onnxruntime', reason='onnxruntime is not installed (pip install '
    'chainer-core[onnx])')
import onnx  # NOQA: E402
import chainer_core.onnx  # NOQA: E402
from chainer_core.onnx import _capture  # NOQA: E402

DEFAULT_OPSET = chainer_core.onnx.default_opset_version()
#: The opsets every converter is checked at: the oldest and the default.
OPSETS = sorted({13, DEFAULT_OPSET})


def host(array):
    return numpy.asarray(chainer.backend.CpuDevice().send(array))


def session(model, threads=None):
    options = ort.SessionOptions()
    if threads is not None:
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = threads
    return ort.InferenceSession(model.SerializeToString(), options,
                                providers=['CPUExecutionProvider'])


def run(model, inputs):
    """The outputs of ``model`` in ONNX Runtime for ``inputs`` (name ->
    Variable), as a list."""
    feeds = {name: host(x.array) for name, x in inputs.items()}
    return session(model).run(None, feeds)


def check(fn, args, opset_version, rtol=1e-5, atol=1e-5, **kwargs):
    """Export ``fn`` run on ``args``, run the ONNX model in ONNX Runtime
    and compare its outputs with ours.

    Returns:
        onnx.ModelProto: the exported model.
    """
    model, inputs, outputs = chainer_core.onnx.export(
        fn, args, opset_version=opset_version, return_named_inout=True,
        **kwargs)
    got = run(model, inputs)
    assert len(got) == len(outputs)
    for (name, y), z in zip(outputs.items(), got):
        expected = host(y.array)
        assert z.shape == expected.shape, name
        assert z.dtype == expected.dtype, name
        numpy.testing.assert_allclose(z, expected, rtol=rtol, atol=atol,
                                      err_msg=name)
    return model


def functions_applied(fn, args):
    """The class names of the FunctionNodes ``fn`` applies to ``args``."""
    args = [chainer.Variable(a) for a in args]
    with chainer.using_config('train', False), _capture.Tracer() as t:
        fn(*args)
    return {type(c.function).__name__ for c in t.calls}


def case_ids(cases):
    return [c[0] for c in cases]


def f32(*shape, seed=0, low=-1, high=1):
    """A float32 array of ``shape`` drawn uniformly from [low, high)."""
    rng = numpy.random.RandomState(seed)
    return rng.uniform(low, high, shape).astype(numpy.float32)
