"""Linear layer of NoisyNets with factorized Gaussian noise (Fortunato et
al., 2018)."""
import math

import numpy

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L
from chainer_core import initializers

from chainer_rl import _arrays


def _signed_sqrt(x):
    # The paper's f(x) = sgn(x) sqrt(|x|).
    return numpy.sign(x) * numpy.sqrt(numpy.abs(x))


class FactorizedNoisyLinear(chainer.Chain):
    """``y = (mu_W + sigma_W * outer(f(e_out), f(e_in))) x + mu_b + sigma_b
    * f(e_out)`` with fresh standard normal ``e_in``, ``e_out`` at every
    call, so exploration comes from learned, state-dependent noise.

    Args:
        mu_link (~chainer_core.links.Linear): gives the sizes (its input
            size may still be unknown) and whether there is a bias.
        sigma_scale (float): the paper's sigma_0: the noise scales start at
            ``sigma_scale / sqrt(in_size)``.

    As in the paper, the means start uniform in
    ``[-1/sqrt(in_size), 1/sqrt(in_size)]``. Noise is drawn from NumPy's
    global generator on the host, so ``numpy.random.seed`` makes it
    reproducible on every device.
    """

    def __init__(self, mu_link, sigma_scale=0.4):
        owner = 'FactorizedNoisyLinear'
        if not isinstance(mu_link, L.Linear):
            raise TypeError('{}: mu_link must be a chainer_core.links.Linear,'
                            ' got {}'.format(owner, type(mu_link).__name__))
        self.sigma_scale = _arrays.check_real(owner, 'sigma_scale',
                                              sigma_scale)
        if self.sigma_scale < 0:
            raise ValueError('{}: sigma_scale must not be negative, got {}'
                             .format(owner, sigma_scale))
        super().__init__()
        self.out_size = mu_link.out_size
        self.nobias = mu_link.b is None
        in_size = (None if mu_link.W.array is None
                   else int(numpy.prod(mu_link.W.shape[1:])))
        with self.init_scope():
            self.mu = L.Linear(in_size, self.out_size, self.nobias,
                               initialW=initializers.LeCunUniform(
                                   1 / math.sqrt(3)))
            self.sigma = L.Linear(in_size, self.out_size, self.nobias,
                                  initialW=initializers.Constant(0))
        self._biases_pending = not self.nobias
        if in_size is not None:
            self._initialize(in_size)
        self.to_device(mu_link.device)

    def _initialize(self, in_size):
        """Values that depend on the input size: the noise scales, and the
        biases that the paper draws like the weights."""
        scale = self.sigma_scale / math.sqrt(in_size)
        self.sigma.W.array[...] = scale
        if self._biases_pending:
            bound = 1 / math.sqrt(in_size)
            b = numpy.random.uniform(-bound, bound, self.out_size)
            self.mu.b.array[...] = _arrays.like(b, self.mu.b.array,
                                                dtype=self.mu.b.dtype)
            self.sigma.b.array[...] = scale
            self._biases_pending = False

    def forward(self, x):
        """Noisy linear map of ``x`` (flattened to 2-D)."""
        if x.ndim != 2:
            x = F.reshape(x, (x.shape[0], -1))
        if self.mu.W.array is None:
            in_size = x.shape[1]
            self.mu.W.initialize((self.out_size, in_size))
            self.sigma.W.initialize((self.out_size, in_size))
            self._initialize(in_size)
        out_size, in_size = self.sigma.W.shape
        eps = _signed_sqrt(numpy.random.standard_normal(in_size + out_size))
        eps = _arrays.like(eps, self.sigma.W.array, dtype=self.sigma.W.dtype)
        eps_in, eps_out = eps[:in_size], eps[in_size:]
        noise = eps_out[:, None] * eps_in[None, :]
        W = self.mu.W + self.sigma.W * noise
        if self.nobias:
            return F.linear(x, W)
        b = self.mu.b + self.sigma.b * eps_out
        return F.linear(x, W, b)
