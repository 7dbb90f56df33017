"""Small helpers shared by ops, links and user code (Chainer's
``chainer.utils``)."""
from collections import abc as collections_abc  # NOQA
import contextlib
import numbers
import shutil
import tempfile

import numpy

_SCALARS = (numpy.generic, numbers.Number)


def force_array(x, dtype=None):
    """``x`` as an array: NumPy reductions and Python arithmetic may
    return scalars.

    Args:
        x: an array, a NumPy scalar or a Python scalar.
        dtype: the dtype of the result; ``None`` keeps ``x``'s.

    Returns:
        ``x`` itself when it already is an array of ``dtype``; otherwise a
        (0-d, for a scalar) array of ``dtype``.

    Example:
        >>> utils.force_array(2.5, numpy.float32)
        array(2.5, dtype=float32)
    """
    if isinstance(x, _SCALARS):
        return numpy.asarray(x, dtype=dtype)
    if dtype is not None and x.dtype != dtype:
        return x.astype(dtype, copy=False)
    return x


def force_type(dtype, value):
    """``value`` as ``dtype``: a scalar becomes ``dtype.type(value)``, an
    array is cast unless it already has ``dtype``.

    Args:
        dtype (numpy.dtype): the dtype.
        value: a scalar or an array.
    """
    if numpy.isscalar(value):
        return dtype.type(value)
    if value.dtype != dtype:
        return value.astype(dtype, copy=False)
    return value


@contextlib.contextmanager
def tempdir(**kwargs):
    """A temporary directory, removed with its contents on exit.

    Args:
        kwargs: passed to :func:`tempfile.mkdtemp` (``suffix``, ``prefix``,
            ``dir``).

    Example:
        >>> with utils.tempdir() as d:
        ...     open(os.path.join(d, 'a.txt'), 'w').close()
    """
    path = tempfile.mkdtemp(**kwargs)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


from chainer_core.utils import argument  # NOQA
from chainer_core.utils import array  # NOQA
from chainer_core.utils import cache  # NOQA
from chainer_core.utils import conv  # NOQA
from chainer_core.utils import conv_nd  # NOQA
from chainer_core.utils import conv_nd_kernel  # NOQA
from chainer_core.utils import error  # NOQA
from chainer_core.utils import imgproc  # NOQA
from chainer_core.utils import meta  # NOQA
from chainer_core.utils import precision  # NOQA
from chainer_core.utils import sparse  # NOQA
from chainer_core.utils import type_check  # NOQA
from chainer_core.utils import walker_alias  # NOQA
from chainer_core.utils.array import size_of_shape, sum_to  # NOQA
from chainer_core.utils.conv import get_conv_outsize  # NOQA
from chainer_core.utils.conv import get_deconv_outsize  # NOQA
# ``experimental`` and ``nondeterministic`` name both a module and the
# function in it; as in Chainer, the attribute is the function.
from chainer_core.utils.experimental import experimental  # NOQA
from chainer_core.utils.meta import enable_final, final  # NOQA
from chainer_core.utils.nondeterministic import nondeterministic  # NOQA
from chainer_core.utils.sparse import CooMatrix, get_order, to_coo  # NOQA
from chainer_core.utils.walker_alias import WalkerAlias  # NOQA
