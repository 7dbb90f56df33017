"""decorrelated_batch_normalization and its fixed-statistics variant: ZCA
whitening of groups of channels."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.normalization import _util
from chainer_core.utils import type_check


def _grouped(x, groups):
    """(N, c, ...) -> (groups, c // groups, m): the channels of each group
    against every (sample, position), m = N * prod(...)."""
    perm = (1, 0) + tuple(range(2, x.ndim))
    return x.transpose(perm).reshape(groups, x.shape[1] // groups, -1)


def _ungrouped(xp, y, shape, dtype):
    """The inverse of _grouped, as a contiguous array of dtype."""
    perm = (1, 0) + tuple(range(2, len(shape)))
    y = y.reshape((shape[1], shape[0]) + tuple(shape[2:])).transpose(perm)
    return xp.ascontiguousarray(y.astype(dtype, copy=False))


def _swap(a):
    return a.transpose(0, 2, 1)


@kernels.declare('decorrelated_batch_normalization')
def _dbn(xp, x, groups, eps):
    """(y, mean, projection, xc, eigvals, eigvecs): per group of channels,
    y = cov ** -1/2 (x - mean) (ZCA whitening) with cov the biased
    covariance over the other axes plus eps I. mean is (groups, C),
    projection = cov ** -1/2 is (groups, C, C); xc (the centred data, of
    shape (groups, C, m)) and the eigendecomposition of cov are what the
    gradient needs. Computed in float32 at least."""
    xc = _grouped(_util.wide(x), groups)
    mean = xc.mean(axis=2, keepdims=True)
    xc = xc - mean
    c = xc.shape[1]
    cov = xp.matmul(xc, _swap(xc)) / xc.shape[2]
    cov += eps * xp.eye(c, dtype=cov.dtype)
    eigvals, eigvecs = xp.linalg.eigh(cov)
    projection = xp.matmul(eigvecs * (eigvals ** -0.5)[:, None, :],
                           _swap(eigvecs))
    y = _ungrouped(xp, xp.matmul(projection, xc), x.shape, x.dtype)
    return y, mean[:, :, 0], projection, xc, eigvals, eigvecs


@kernels.declare('decorrelated_batch_normalization_grad')
def _dbn_grad(xp, gy, groups, xc, eigvals, eigvecs):
    """gx of decorrelated_batch_normalization for the output gradient gy,
    from the xc, eigvals and eigvecs of its forward kernel.

    In the eigenbasis (G' = V^T G, X' = V^T xc, s = sqrt(eigvals)):
    the gradient of cov ** -1/2 is the Hadamard product with
    F_ij = -1 / (s_i s_j (s_i + s_j)) (finite for repeated eigenvalues), so
    gxc = V (G' / s + 2 / m (F * sym(G' X'^T)) X'), centred over m."""
    g = _grouped(_util.wide(gy), groups)
    m = g.shape[2]
    s = xp.sqrt(eigvals)
    vt = _swap(eigvecs)
    g_eig = xp.matmul(vt, g)
    x_eig = xp.matmul(vt, xc)
    a = xp.matmul(g_eig, _swap(x_eig))
    a += _swap(a)
    si, sj = s[:, :, None], s[:, None, :]
    a /= si * sj * (si + sj) * -m
    t = g_eig / si + xp.matmul(a, x_eig)
    gx = xp.matmul(eigvecs, t)
    gx -= gx.mean(axis=2, keepdims=True)
    return _ungrouped(xp, gx, gy.shape, gy.dtype)


@kernels.declare('fixed_decorrelated_batch_normalization')
def _fixed_dbn(xp, x, mean, projection, groups):
    """y = projection (x - mean) per group of channels; mean is (groups, C),
    projection (groups, C, C)."""
    xc = _grouped(_util.wide(x), groups) - mean[:, :, None]
    return _ungrouped(xp, xp.matmul(projection, xc), x.shape, x.dtype)


def _check_groups(x_type, groups):
    groups_var = type_check.make_variable(groups, 'groups')
    type_check.expect(x_type.shape[1] % groups_var == 0)


class DecorrelatedBatchNormalization(function_node.FunctionNode):
    """ZCA whitening of groups of channels with the batch's statistics."""

    def __init__(self, groups=16, eps=2e-5, mean=None, projection=None,
                 decay=0.9):
        op = 'decorrelated_batch_normalization'
        self.groups = _util.check_groups(op, groups)
        self.eps = _util.check_number(op, 'eps', eps, low=0)
        self.decay = _util.check_number(op, 'decay', decay, low=0, high=1)
        self.running_mean = _util.running_array(mean)
        self.running_projection = _util.running_array(projection)

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))
        x_type, = in_types
        type_check.expect(x_type.dtype.kind == 'f', x_type.ndim >= 2)
        _check_groups(x_type, self.groups)

    def forward(self, inputs):
        x, = inputs
        g = self.groups
        c = x.shape[1] // g
        op = 'decorrelated_batch_normalization'
        for name, a, shape in (('running_mean', self.running_mean, (g, c)),
                               ('running_projection', self.running_projection,
                                (g, c, c))):
            if a is not None and a.shape != shape:
                raise ValueError('{}: {} must have the shape {}, got {}'
                                 .format(op, name, shape, a.shape))
        y, mean, projection, self.xc, self.eigvals, self.eigvecs = \
            kernels.lookup('decorrelated_batch_normalization', x)(
                x, g, self.eps)
        m = x.size // x.shape[1]
        if self.running_mean is not None:
            self.running_mean *= self.decay
            self.running_mean += (1 - self.decay) * mean
        if self.running_projection is not None:
            # As Chainer does, the projection is scaled by m / (m - 1) like
            # an unbiased variance.
            self.running_projection *= self.decay
            self.running_projection += \
                (1 - self.decay) * m / max(m - 1.0, 1.0) * projection
        return y,

    def backward(self, indexes, grad_outputs):
        return DecorrelatedBatchNormalizationGrad(self).apply(grad_outputs)


class DecorrelatedBatchNormalizationGrad(function_node.FunctionNode):
    """``gy -> gx``; not differentiable again (as in Chainer)."""

    def __init__(self, fwd):
        self.groups = fwd.groups
        self.xc, self.eigvals, self.eigvecs = fwd.xc, fwd.eigvals, fwd.eigvecs

    def forward(self, inputs):
        gy, = inputs
        return kernels.lookup('decorrelated_batch_normalization_grad', gy)(
            gy, self.groups, self.xc, self.eigvals, self.eigvecs),

    def backward(self, indexes, grad_outputs):
        raise RuntimeError('decorrelated_batch_normalization does not '
                           'support double backprop')


class FixedDecorrelatedBatchNormalization(function_node.FunctionNode):
    """Decorrelation with given mean and projection."""

    def __init__(self, groups):
        self.groups = _util.check_groups(
            'fixed_decorrelated_batch_normalization', groups)

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 3)
        type_check.argname(in_types, ('x', 'mean', 'projection'))
        x_type, mean_type, proj_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim >= 2,
            mean_type.dtype == x_type.dtype,
            proj_type.dtype == x_type.dtype,
            mean_type.ndim == 2,
            proj_type.ndim == 3,
        )
        _check_groups(x_type, self.groups)
        groups = type_check.make_variable(self.groups, 'groups')
        type_check.expect(
            mean_type.shape[0] == groups,
            mean_type.shape[1] * groups == x_type.shape[1],
            proj_type.shape[0] == groups,
            proj_type.shape[1] == mean_type.shape[1],
            proj_type.shape[2] == mean_type.shape[1],
        )

    def forward(self, inputs):
        x, mean, projection = inputs
        self.retain_inputs((0, 1, 2))
        return kernels.lookup('fixed_decorrelated_batch_normalization', x)(
            x, mean, projection, self.groups),

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.array.reshape import reshape
        from chainer_core.functions.array.transpose import transpose
        from chainer_core.functions.math.matmul import matmul
        from chainer_core.functions.math.sum import sum as sum_
        x, mean, projection = self.get_retained_inputs()
        gy, = grad_outputs
        g = self.groups
        b, c = x.shape[:2]
        perm = (1, 0) + tuple(range(2, x.ndim))
        grouped = (g, c // g, -1)
        gy_g = reshape(transpose(gy, perm), grouped)
        ret = []
        g_xc = None
        if 0 in indexes or 1 in indexes:
            g_xc = matmul(projection, gy_g, transa=True)
        for i in indexes:
            if i == 0:
                ret.append(transpose(reshape(
                    g_xc, (c, b) + x.shape[2:]), perm))
            elif i == 1:
                ret.append(-sum_(g_xc, axis=2))
            else:
                xc = reshape(transpose(x, perm), grouped) - \
                    reshape(mean, (g, c // g, 1))
                ret.append(matmul(gy_g, xc, transb=True))
        return tuple(ret)


def decorrelated_batch_normalization(x, **kwargs):
    """decorrelated_batch_normalization(x, *, groups=16, eps=2e-5, \
running_mean=None, running_projection=None, decay=0.9)

    Decorrelated batch normalization: ZCA whitening with the statistics of
    the batch.

    The ``c`` channels of ``x`` (shape ``(N, c, ...)``) are split into
    ``groups`` groups of ``C = c // groups`` consecutive channels. For each
    group, with :math:`X` the ``C x m`` matrix of its channels against every
    sample and position (``m = N * prod(x.shape[2:])``), :math:`\\mu` the
    mean of the columns and :math:`\\Sigma = (X - \\mu)(X - \\mu)^T / m +
    \\epsilon I`:

    .. math:: Y = \\Sigma^{-1/2} (X - \\mu)

    The output has zero mean and (up to ``eps``) identity covariance in
    every group. Differentiable once.

    Args:
        x (Variable or array): input of shape ``(N, c, ...)``,
            float16/32/64; ``groups`` must divide ``c``.
        groups (int): the number of groups.
        eps (float): added to the diagonal of the covariance.
        running_mean (array or None): of shape ``(groups, C)``, updated in
            place to ``decay * running_mean + (1 - decay) * mean``.
        running_projection (array or None): of shape ``(groups, C, C)``,
            updated in place to ``decay * running_projection + (1 - decay) *
            m / (m - 1) * Sigma^{-1/2}`` (the factor as in Chainer).
        decay (float): the decay rate of the running averages.

    Returns:
        Variable of the shape and dtype of ``x``.
    """
    groups, eps, running_mean, running_projection, decay = \
        _util.parse_kwargs(
            'decorrelated_batch_normalization', kwargs, ('groups', 16),
            ('eps', 2e-5), ('running_mean', None),
            ('running_projection', None), ('decay', 0.9))
    return DecorrelatedBatchNormalization(
        groups, eps, running_mean, running_projection, decay).apply((x,))[0]


def fixed_decorrelated_batch_normalization(x, mean, projection, groups=16):
    """Decorrelated batch normalization with given statistics.

    Per group of channels (see :func:`decorrelated_batch_normalization`):
    :math:`Y = P (X - \\mu)`. Differentiable with respect to all three
    inputs, twice (and more).

    Args:
        x (Variable or array): input of shape ``(N, c, ...)``,
            float16/32/64.
        mean (Variable or array): of shape ``(groups, c // groups)``.
        projection (Variable or array): of shape ``(groups, c // groups,
            c // groups)``.
        groups (int): the number of groups; it must divide ``c``.

    Returns:
        Variable of the shape and dtype of ``x``.
    """
    return FixedDecorrelatedBatchNormalization(groups).apply(
        (x, mean, projection))[0]
