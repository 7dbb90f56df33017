"""BatchNormalization: batch normalization with running statistics."""
import numpy

from chainer_core import configuration
from chainer_core import initializers
from chainer_core.functions.array.cast import cast
from chainer_core.functions.normalization.batch_normalization import (
    batch_normalization, fixed_batch_normalization)
from chainer_core.link import Link
from chainer_core.variable import Parameter


def _dtype(dtype):
    """A normalization link's parameter dtype: the default dtype when
    None; under mixed16, float32 (its statistics need the range)."""
    return configuration.get_dtype(dtype, map_mixed16=numpy.float32)


def _parse_forward_kwargs(name, kwargs):
    if 'test' in kwargs:
        raise ValueError("{}: the test argument is not supported anymore; use "
                         "chainer.using_config('train', False)".format(name))
    finetune = kwargs.pop('finetune', False)
    if kwargs:
        raise TypeError('{}: unexpected keyword arguments {}'.format(
            name, ', '.join(sorted(kwargs))))
    return finetune


class BatchNormalization(Link):
    """Batch normalization layer with running statistics (see
    :func:`~chainer_core.functions.batch_normalization`).

    In training mode (``config.train``) the input is normalized with the
    statistics of the batch, and the running mean and variance are
    updated as ``avg = decay * avg + (1 - decay) * batch statistic`` (the
    variance unbiased). With ``finetune=True`` the decay is ``1 - 1/N``,
    ``N`` counting the fine-tuning calls, so the running statistics become
    the average over those batches. In test mode the running statistics
    are used (:func:`~chainer_core.functions.fixed_batch_normalization`).

    Args:
        size (int, tuple of ints or None): the shape of ``gamma``,
            ``beta`` and the statistics; None (with ``axis``) allocates
            them on the first call.
        decay (float): decay rate of the running averages.
        eps (float): added to the variance, for stability.
        dtype: the dtype of the parameters and statistics (default:
            ``config.dtype``).
        use_gamma (bool): learn a scale ``gamma`` (else 1).
        use_beta (bool): learn a shift ``beta`` (else 0).
        initial_gamma: initializer of ``gamma`` (default: ones).
        initial_beta: initializer of ``beta`` (default: zeros).
        axis (int, tuple of ints or None): the axes reduced over; by
            default the first axis and those after the channel axes.
        initial_avg_mean: initializer of ``avg_mean`` (default: zeros).
        initial_avg_var: initializer of ``avg_var`` (default: ones).

    Attributes:
        gamma (Parameter): scale, or None.
        beta (Parameter): shift, or None.
        avg_mean (array): running mean (persistent).
        avg_var (array): running variance (persistent).
        N (int): the number of fine-tuning calls (persistent).
        decay (float), eps (float), axis (tuple or None).
    """

    gamma = None
    beta = None
    avg_mean = None
    avg_var = None

    def __init__(self, size=None, decay=0.9, eps=2e-5, dtype=None,
                 use_gamma=True, use_beta=True, initial_gamma=None,
                 initial_beta=None, axis=None, initial_avg_mean=None,
                 initial_avg_var=None):
        super().__init__()
        if size is None and axis is None:
            raise RuntimeError('BatchNormalization: size or axis is required')
        self._initial_avg_mean = initial_avg_mean
        self._initial_avg_var = initial_avg_var
        self.N = 0
        self.register_persistent('N')
        self.decay = decay
        self.eps = eps
        if isinstance(axis, int):
            axis = (axis,)
        self.axis = axis
        self._highprec_dtype = _dtype(dtype)
        with self.init_scope():
            if use_gamma:
                self.gamma = Parameter(self._initializer(initial_gamma, 1))
            if use_beta:
                self.beta = Parameter(self._initializer(initial_beta, 0))
        self.add_persistent('avg_mean', None)
        self.add_persistent('avg_var', None)
        if size is not None:
            self._initialize_params(size)

    def _initializer(self, initializer, default):
        if initializer is None:
            initializer = default
        initializer = initializers._get_initializer(initializer)
        initializer.dtype = self._highprec_dtype
        return initializer

    def _initialize_params(self, shape):
        self.avg_mean = self._init_array(self._initial_avg_mean, 0, shape)
        self._initial_avg_mean = None
        self.avg_var = self._init_array(self._initial_avg_var, 1, shape)
        self._initial_avg_var = None
        if self.gamma is not None:
            self.gamma.initialize(shape)
        if self.beta is not None:
            self.beta.initialize(shape)

    def _init_array(self, initializer, default, shape):
        initializer = initializers._get_initializer(
            default if initializer is None else initializer)
        return initializers.generate_array(
            initializer, shape, self.xp, dtype=self._highprec_dtype,
            device=self.device)

    @property
    def printable_specs(self):
        yield 'size', None if self.avg_mean is None else self.avg_mean.shape
        yield 'decay', self.decay
        yield 'eps', self.eps
        yield 'dtype', self._highprec_dtype
        yield 'use_gamma', self.gamma is not None
        yield 'use_beta', self.beta is not None
        yield 'axis', self.axis

    def _gamma_beta(self, dtype):
        """``gamma`` and ``beta`` (ones and zeros when not learnt) in the
        input's ``dtype``: a float16 input with float32 parameters runs in
        float16, the gradients reaching the float32 parameters."""
        xp, shape = self.xp, self.avg_mean.shape
        gamma = self.gamma
        if gamma is None:
            gamma = xp.ones(shape, dtype=dtype)
        elif gamma.dtype != dtype:
            gamma = cast(gamma, dtype)
        beta = self.beta
        if beta is None:
            beta = xp.zeros(shape, dtype=dtype)
        elif beta.dtype != dtype:
            beta = cast(beta, dtype)
        return gamma, beta

    def _running(self, dtype):
        """The running statistics in the input's ``dtype`` (test mode)."""
        mean, var = self.avg_mean, self.avg_var
        if mean.dtype != dtype:
            mean, var = mean.astype(dtype), var.astype(dtype)
        return mean, var

    def _decay(self, finetune):
        if finetune:
            self.N += 1
            return 1. - 1. / self.N
        return self.decay

    def forward(self, x, **kwargs):
        """forward(x, finetune=False)

        Normalize ``x``; ``finetune`` (training mode only) accumulates the
        statistics with the decay ``1 - 1/N``.
        """
        finetune = _parse_forward_kwargs('BatchNormalization', kwargs)
        if self.avg_mean is None:
            axis = self.axis
            self._initialize_params(tuple(
                d for i, d in enumerate(x.shape) if i not in axis))
        gamma, beta = self._gamma_beta(x.dtype)
        if configuration.config.train:
            decay = self._decay(finetune)
            avg_mean, avg_var = self.avg_mean, self.avg_var
            if configuration.config.in_recomputing:
                # A recomputed forward pass must not count twice.
                if finetune:
                    self.N -= 1
                avg_mean = avg_var = None
            return batch_normalization(
                x, gamma, beta, eps=self.eps, running_mean=avg_mean,
                running_var=avg_var, decay=decay, axis=self.axis)
        mean, var = self._running(x.dtype)
        return fixed_batch_normalization(x, gamma, beta, mean, var, self.eps,
                                         axis=self.axis)

    def start_finetuning(self):
        """Reset the fine-tuning count ``N``."""
        self.N = 0
