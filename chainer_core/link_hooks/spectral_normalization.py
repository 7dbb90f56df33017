"""SpectralNormalization: divide a link's weight by its largest singular
value (Miyato et al., *Spectral Normalization for Generative Adversarial
Networks*, arXiv:1802.05957)."""
import numpy

from chainer_core import link_hook
from chainer_core.configuration import config
from chainer_core.variable import Parameter


def _l2normalize(xp, x, eps):
    return x / (xp.linalg.norm(x) + eps)


def update_approximate_vectors(weight_matrix, u, n_power_iteration, eps):
    """Run ``n_power_iteration`` steps of the power iteration from ``u``.

    Args:
        weight_matrix: the weight as a 2-D Variable or array.
        u: the current estimate of the first left singular vector.
        n_power_iteration (int): the number of steps.
        eps (float): a small value added to the norms.

    Returns:
        The new estimates of the first left and right singular vectors
        ``(u, v)`` (arrays).
    """
    w = getattr(weight_matrix, 'array', weight_matrix)
    xp = _xp_of(w)
    v = None
    for _ in range(n_power_iteration):
        v = _l2normalize(xp, u.dot(w), eps)
        u = _l2normalize(xp, w.dot(v), eps)
    return u, v


def calculate_max_singular_value(weight_matrix, u, v):
    """``u^T W v``, the largest singular value estimated from ``u`` and
    ``v``, differentiable with respect to ``weight_matrix``."""
    from chainer_core.functions.math.matmul import matmul
    return matmul(matmul(u, weight_matrix), v)


def _xp_of(array):
    from chainer_core.backend import get_array_module
    return get_array_module(array)


def _is_deconvolution(link):
    # A deconvolution's weight is (in_channels, out_channels, ...): its
    # output axis, the one the norm is taken over, is axis 1. Matched by
    # name so that the hook needs no import of the convolution links.
    return any(cls.__name__.startswith('Deconvolution')
               for cls in type(link).__mro__)


class SpectralNormalization(link_hook.LinkHook):
    """Spectral normalization of a link's weight, as a link hook.

    Before each forward, the weight ``W`` (reshaped to a matrix with the
    output axis first) is divided by an estimate of its largest singular
    value ``sigma = u^T W v``, where ``u`` and ``v`` come from power
    iteration. ``u`` is kept as the persistent ``<weight_name>_u`` of the
    link (saved with it); it is updated in training mode only
    (``config.train``), so that evaluation does not change the model. The
    gradient flows through ``sigma`` to ``W``.

    Add it with ``link.add_hook(SpectralNormalization())``; it cannot be
    used as a context manager.

    Args:
        n_power_iteration (int): power iteration steps per forward.
        eps (float): a small value added to the vector norms.
        use_gamma (bool): also learn a scale ``gamma`` (a parameter of the
            link, initialised with the spectral norm of the initial weight),
            multiplying the normalised weight.
        factor (float): when given, the weight is divided by
            ``sigma / factor``.
        weight_name (str): the name of the weight parameter.
        name (str): the name of the hook (default 'SpectralNormalization').

    Attributes:
        vector_name (str): the name of the persistent ``u``.
        axis (int): the output axis of the weight (1 for deconvolutions).
    """

    name = 'SpectralNormalization'

    def __init__(self, n_power_iteration=1, eps=1e-6, use_gamma=False,
                 factor=None, weight_name='W', name=None):
        if n_power_iteration <= 0:
            raise ValueError('n_power_iteration must be positive, got {}'
                             .format(n_power_iteration))
        self.n_power_iteration = n_power_iteration
        self.eps = eps
        self.use_gamma = use_gamma
        self.factor = factor
        self.weight_name = weight_name
        self.vector_name = weight_name + '_u'
        self._initialized = False
        self.axis = 0
        self.v = None
        if name is not None:
            self.name = name

    def __enter__(self):
        raise NotImplementedError(
            'SpectralNormalization normalises one link: add it with '
            'link.add_hook(...), not as a context manager')

    def __exit__(self, *exc):
        raise NotImplementedError(
            'SpectralNormalization is not a context manager')

    def added(self, link):
        if link is None:
            raise ValueError('SpectralNormalization must be added to a link')
        if not hasattr(link, self.weight_name):
            raise ValueError('SpectralNormalization: the link {} has no '
                             'weight {!r}'.format(type(link).__name__,
                                                  self.weight_name))
        if _is_deconvolution(link):
            self.axis = 1
        if getattr(link, self.weight_name).array is not None:
            self._prepare_parameters(link)

    def deleted(self, link):
        delattr(link, self.vector_name)
        if self.use_gamma:
            del link.gamma
        self._initialized = False

    def forward_preprocess(self, cb_args):
        link = cb_args.link
        if not self._initialized:
            x = cb_args.args[0] if cb_args.args else None
            self._prepare_parameters(link, x)
        # The link sees the normalised weight (a Variable) during its
        # forward; the Parameter is put back afterwards.
        self.original_weight = getattr(link, self.weight_name)
        setattr(link, self.weight_name, self.normalize_weight(link))

    def forward_postprocess(self, cb_args):
        setattr(cb_args.link, self.weight_name, self.original_weight)

    def _prepare_parameters(self, link, input_variable=None):
        weight = getattr(link, self.weight_name)
        if weight.array is None:
            if input_variable is None:
                raise ValueError(
                    'SpectralNormalization: the weight {!r} of {} is not '
                    'initialised and there is no input to infer its shape'
                    .format(self.weight_name, type(link).__name__))
            link._initialize_params(self._in_size(link, input_variable))
            weight = getattr(link, self.weight_name)
        n = weight.shape[self.axis]
        if n == 0:
            raise ValueError('SpectralNormalization: expected {}.shape[{}] > '
                             '0, got the shape {}'.format(
                                 self.weight_name, self.axis, weight.shape))
        u = numpy.random.normal(size=(n,)).astype(weight.dtype)
        setattr(link, self.vector_name, link.device.send(u))
        link.register_persistent(self.vector_name)
        if self.use_gamma:
            w = self.reshape_W(weight.array)
            xp = _xp_of(w)
            sigma = xp.linalg.svd(w, compute_uv=False)[0]
            with link.init_scope():
                link.gamma = Parameter(xp.asarray(sigma, dtype=weight.dtype)
                                       .reshape(()))
        self._initialized = True

    def _in_size(self, link, x):
        shape = x.shape
        from chainer_core.links.connection.linear import Linear
        if isinstance(link, Linear):
            size = 1
            for s in shape[1:]:
                size *= s
            return size
        return shape[1]

    def normalize_weight(self, link):
        """The weight divided by its estimated spectral norm (a Variable);
        in training mode ``u`` is updated too."""
        weight = getattr(link, self.weight_name)
        u = getattr(link, self.vector_name)
        weight_matrix = self.reshape_W(weight)
        if config.in_recomputing:
            # A recomputed forward must see the vectors of the first one.
            v = self.v
        else:
            u, v = update_approximate_vectors(
                weight_matrix, u, self.n_power_iteration, self.eps)
        sigma = calculate_max_singular_value(weight_matrix, u, v)
        if self.factor is not None:
            sigma /= self.factor
        if self.use_gamma:
            normalized = link.gamma * weight / sigma
        else:
            normalized = weight / sigma
        if not config.in_recomputing:
            self.v = v
            if config.train:
                getattr(link, self.vector_name)[...] = u
        return normalized

    def reshape_W(self, W):
        """``W`` as a matrix whose rows are along the output axis."""
        if self.axis != 0:
            axes = [self.axis] + [i for i in range(W.ndim) if i != self.axis]
            W = W.transpose(axes)
        if W.ndim == 2:
            return W
        return W.reshape(W.shape[0], -1)
