"""GradientNoise: add (annealed Gaussian) noise to the gradients."""
import numpy

from chainer_core.optimizer_hooks._scale import loss_scale_of


def exponential_decay_noise(xp, shape, dtype, hook, opt):
    """Gaussian noise of variance ``hook.eta / (1 + opt.t) ** 0.55``.

    From Neelakantan et al., *Adding Gradient Noise Improves Learning for
    Very Deep Networks* (arXiv:1511.06807). ``opt`` is the update rule (or
    the optimizer) whose step count anneals the noise.
    """
    std = numpy.sqrt(hook.eta / numpy.power(1 + opt.t, 0.55))
    return xp.random.normal(0, std, shape).astype(dtype)


class GradientNoise:
    """Add ``noise_func(xp, shape, dtype, hook, rule)`` to each gradient.

    Args:
        eta (float): the scale of the noise (0.01, 0.3 or 1.0 are the
            values the paper recommends for the default noise).
        noise_func (callable): makes the noise; the default is
            :func:`exponential_decay_noise`.

    Attributes:
        eta (float): the scale of the noise.
        noise_func (callable): the noise function.
        timing (str): ``'pre'`` (before the update) or ``'post'``.
    """

    name = 'GradientNoise'
    call_for_each_param = True
    timing = 'pre'

    def __init__(self, eta, noise_func=exponential_decay_noise):
        self.eta = eta
        self.noise_func = noise_func

    def __call__(self, rule, param):
        g = param.grad
        if g is None:
            return
        noise = self.noise_func(param.device.xp, g.shape, g.dtype, self, rule)
        scale = loss_scale_of(param)
        if scale != 1:
            noise = noise * scale
        g += noise
