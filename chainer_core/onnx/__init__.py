"""Export to ONNX (onnx-chainer's API): :func:`export` writes a model's
forward run as an ONNX model, :func:`export_testcase` also writes its
inputs and outputs in ONNX's backend-test layout, and
:mod:`~chainer_core.onnx.converters` holds the converter of each function.

Needs the ``onnx`` package (``pip install chainer-core[onnx]``, which also
installs ``onnxruntime`` to run the exported models). See docs/onnx.md.

Example:
    >>> import chainer_core.onnx
    >>> chainer_core.onnx.export(model, x, 'model.onnx')
"""
try:
    # Checked here so that the error says what to do; a submodule, so that
    # a directory named onnx on sys.path (a namespace package) does not
    # pass for the package.
    import onnx.helper  # NOQA
except ImportError as e:
    raise ImportError(
        'chainer_core.onnx needs the onnx package, which is not installed '
        '({}): pip install chainer-core[onnx]'.format(e)) from e

from chainer_core.onnx import converters  # NOQA
from chainer_core.onnx._compare import compare_with_onnxruntime  # NOQA
from chainer_core.onnx._export import default_opset_version  # NOQA
from chainer_core.onnx._export import export  # NOQA
from chainer_core.onnx._export import MAX_OPSET, MIN_OPSET  # NOQA
from chainer_core.onnx._testcase import export_testcase  # NOQA
