"""Batch normalization over the batches of all processes."""
import numpy

from chainer_core import backend
from chainer_core.function_node import FunctionNode
from chainer_core.variable import Variable
from chainer_mn.functions import _util


def _sum_over_processes(comm, parts, backend_name='mpi'):
    """The element-wise sums over the processes of the arrays ``parts``,
    in float64, with one allreduce (``backend_name`` 'nccl': with NCCL on
    the GPU of the 'pure_nccl' communicator ``comm``)."""
    total = numpy.concatenate(
        [numpy.asarray(_host(p), numpy.float64).reshape(-1) for p in parts])
    sum_inplace = getattr(comm, '_sum_inplace', None)
    if backend_name == 'nccl':
        total = _host(comm.allreduce(
            backend.get_device(comm.device).send(total)))
    elif sum_inplace is not None:
        # The MPI communicators sum a buffer in place without the header
        # exchange of allreduce(): one collective per call.
        sum_inplace(total)
    else:
        total = comm.allreduce(total)
    out, off = [], 0
    for p in parts:
        n = int(numpy.prod(p.shape, dtype=numpy.int64))
        out.append(total[off:off + n].reshape(p.shape))
        off += n
    return out


def _host(a):
    if isinstance(a, numpy.ndarray):
        return a
    return backend.get_device('@numpy').send(a)


class MultiNodeBatchNormalizationFunction(FunctionNode):
    """Batch normalization (training mode) whose statistics are those of
    the union of the batches of all processes of ``comm``.

    Inputs ``x`` (channels on axis 1), ``gamma`` and ``beta`` (shape
    ``(C,)``). Forward sums, per channel, the count, the sum and the
    squared deviations of every process in one allreduce (combined in
    float64), normalizes with the global mean and biased variance and
    updates ``running_mean``/``running_var`` in place (the variance with
    the global Bessel correction). Backward sums the output gradient and
    its product with the normalized input over the processes in one
    allreduce: the input gradient is that of normalizing the global batch,
    while the gradients of ``gamma`` and ``beta`` are this process's own
    sums (the multi-node optimizer then averages them). First-order only.
    """

    def __init__(self, comm, eps=2e-5, running_mean=None, running_var=None,
                 decay=0.9, communication_backend='mpi'):
        self.comm = comm
        self.communication_backend = communication_backend
        self.eps = eps
        self.running_mean = running_mean
        self.running_var = running_var
        self.decay = decay

    @property
    def label(self):
        return 'MultiNodeBatchNormalization'

    def check_type_forward(self, in_types):
        from chainer_core.utils import type_check
        type_check.expect(in_types.size() == 3)
        type_check.argname(in_types, ('x', 'gamma', 'beta'))
        x_type, gamma_type, beta_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim >= 2,
            gamma_type.ndim == 1,
            beta_type.ndim == 1,
            gamma_type.shape[0] == x_type.shape[1],
            beta_type.shape[0] == x_type.shape[1],
        )

    def forward(self, inputs):
        x, gamma, beta = inputs
        xp = backend.get_array_module(x)
        axis = (0,) + tuple(range(2, x.ndim))
        expand = (None, slice(None)) + (None,) * (x.ndim - 2)
        wide = numpy.float64 if x.dtype == numpy.float64 else numpy.float32
        xw = x.astype(wide, copy=False)
        n_local = x.size // x.shape[1]
        mean_local = xw.mean(axis=axis)
        dev = xw - mean_local[expand]
        m2_local = (dev * dev).sum(axis=axis)
        # Chan's combination: per process its count n, n * mean and
        # M2 + n * mean**2, summed; then M2 = sum - N * mean**2 loses
        # precision only at the scale of the processes' means.
        n_arr = numpy.full((1,), n_local, numpy.float64)
        mean64 = numpy.asarray(_host(mean_local), numpy.float64)
        s_mean, s_m2, s_n = _sum_over_processes(
            self.comm, [n_local * mean64,
                        numpy.asarray(_host(m2_local), numpy.float64) +
                        n_local * mean64 * mean64, n_arr],
            self.communication_backend)
        n_total = float(s_n[0])
        mean = s_mean / n_total
        var = numpy.maximum(s_m2 / n_total - mean * mean, 0.0)
        inv_std = 1.0 / numpy.sqrt(var + self.eps)
        to_dev = backend.get_device_from_array(x).send \
            if xp is not numpy else (lambda a: a)
        mean_d = to_dev(mean.astype(wide))
        inv_std_d = to_dev(inv_std.astype(wide))
        xhat = (xw - mean_d[expand]) * inv_std_d[expand]
        y = xhat * gamma.astype(wide)[expand] + beta.astype(wide)[expand]
        self._xhat = xhat
        self._inv_std = inv_std_d
        self._gamma = gamma
        self._n_total = n_total
        self._axis = axis
        self._expand = expand
        self._x_meta = (x.shape, x.dtype)
        if self.running_mean is not None:
            adjust = n_total / max(n_total - 1.0, 1.0)
            d = self.decay
            rm, rv = self.running_mean, self.running_var
            rm *= d
            rm += to_dev(((1 - d) * mean).astype(rm.dtype))
            rv *= d
            rv += to_dev(((1 - d) * adjust * var).astype(rv.dtype))
        return y.astype(x.dtype, copy=False),

    def backward(self, target_input_indexes, grad_outputs):
        _util.check_first_order('MultiNodeBatchNormalization')
        gy, = grad_outputs
        xhat = self._xhat
        xp = backend.get_array_module(xhat)
        if gy is None:
            gw = xp.zeros(xhat.shape, xhat.dtype)
        else:
            gw = gy.array.astype(xhat.dtype, copy=False)
        axis, expand = self._axis, self._expand
        gbeta = gw.sum(axis=axis)
        ggamma = (gw * xhat).sum(axis=axis)
        g_sum, g_xhat = _sum_over_processes(
            self.comm, [gbeta, ggamma], self.communication_backend)
        to_dev = backend.get_device_from_array(xhat).send \
            if xp is not numpy else (lambda a: a)
        g_sum = to_dev(g_sum.astype(xhat.dtype))
        g_xhat = to_dev(g_xhat.astype(xhat.dtype))
        n = self._n_total
        gamma = self._gamma.astype(xhat.dtype)
        gx = (gw - (g_sum[expand] + xhat * g_xhat[expand]) / n) * \
            (gamma * self._inv_std)[expand]
        shape, dtype = self._x_meta
        pdtype = self._gamma.dtype
        grads = (gx.astype(dtype, copy=False),
                 ggamma.astype(pdtype, copy=False),
                 gbeta.astype(pdtype, copy=False))
        return tuple(Variable(grads[i], requires_grad=False)
                     for i in target_input_indexes)
