"""export_testcase(): a model with its inputs and outputs in ONNX's
backend-test layout."""
import os

import numpy
from onnx import numpy_helper

from chainer_core import _backprop
from chainer_core import backend
from chainer_core import variable as _variable
from chainer_core.onnx._export import export


def _write_tensor(path, array, name):
    tensor = numpy_helper.from_array(
        numpy.asarray(backend.CpuDevice().send(array)), name)
    with open(path, 'wb') as f:
        f.write(tensor.SerializeToString())


def export_testcase(model, args, out_dir, output_grad=False, **kwargs):
    """Export ``model`` with the inputs and outputs of its run.

    Writes ``out_dir/model.onnx`` and ``out_dir/test_data_set_0/`` holding
    ``input_<i>.pb`` and ``output_<i>.pb`` (``onnx.TensorProto``\\ s named
    as the graph's inputs and outputs), which ``onnx.load_tensor`` reads
    and ONNX's backend test runners take.

    Args:
        model (callable): as for :func:`export`.
        args: as for :func:`export`.
        out_dir (str): the directory to write (made if missing).
        output_grad (bool): also write the gradient of each parameter as
            ``gradient_<i>.pb``, in the order of ``model.namedparams()``
            and named by the parameter's path, from a backward pass
            starting at ones for every output.
        **kwargs: the other arguments of :func:`export` (not
            ``filename`` nor ``return_named_inout``).

    Returns:
        onnx.ModelProto: the exported model.

    Example:
        >>> export_testcase(model, x, 'out/mlp')
        >>> onnx.load_tensor('out/mlp/test_data_set_0/input_0.pb')
    """
    for name in ('filename', 'return_named_inout'):
        if name in kwargs:
            raise TypeError('export_testcase: {} is set by export_testcase '
                            'itself'.format(name))
    os.makedirs(out_dir, exist_ok=True)
    onnx_model, inputs, outputs = export(
        model, args, filename=os.path.join(out_dir, 'model.onnx'),
        return_named_inout=True, **kwargs)
    data_dir = os.path.join(out_dir, 'test_data_set_0')
    os.makedirs(data_dir, exist_ok=True)
    for i, (name, x) in enumerate(inputs.items()):
        _write_tensor(os.path.join(data_dir, 'input_{}.pb'.format(i)),
                      x.array, name)
    for i, (name, y) in enumerate(outputs.items()):
        _write_tensor(os.path.join(data_dir, 'output_{}.pb'.format(i)),
                      y.array, name)
    if output_grad:
        params = list(model.namedparams())
        for _, p in params:
            p.cleargrad()
        ys = list(outputs.values())
        _backprop.backward(ys, [
            _variable.Variable(y.xp.ones_like(y.array), requires_grad=False)
            for y in ys])
        for i, (path, p) in enumerate(params):
            grad = p.grad if p.grad is not None else p.xp.zeros_like(p.array)
            _write_tensor(os.path.join(data_dir, 'gradient_{}.pb'.format(i)),
                          grad, path)
    return onnx_model

