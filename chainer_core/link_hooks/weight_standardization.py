"""WeightStandardization: standardize a link's weight before each forward
(Qiao et al., *Weight Standardization*, arXiv:1903.10520)."""
from chainer_core import link_hook


class WeightStandardization(link_hook.LinkHook):
    """Weight standardization, as a link hook.

    Before each forward, every output filter of the weight (the slices
    along its first axis) is replaced by

    .. math::

        \\hat{W}_o = \\frac{W_o - \\mathrm{mean}(W_o)}
                           {\\sqrt{\\mathrm{var}(W_o) + \\epsilon}}

    (mean and biased variance over the filter's elements). The link computes
    with :math:`\\hat{W}` and the gradient flows through it to ``W``; the
    parameter itself is not changed. A weight still uninitialised gets its
    shape from the first input.

    Args:
        eps (float): added to the variance (keyword).
        weight_name (str): the name of the weight parameter (keyword).
        name (str): the name of the hook (keyword; default
            'WeightStandardization').

    .. admonition:: Example

        >>> conv = L.Convolution2D(3, 8, 3)
        >>> _ = conv.add_hook(chainer.link_hooks.WeightStandardization())
        >>> conv(np.zeros((1, 3, 5, 5), np.float32)).shape
        (1, 8, 3, 3)
    """

    name = 'WeightStandardization'

    def __init__(self, *, eps=1e-6, weight_name='W', name=None):
        self.eps = eps
        self.weight_name = weight_name
        self._initialized = False
        self.original_weight = None
        if name is not None:
            self.name = name

    def __enter__(self):
        raise NotImplementedError(
            'WeightStandardization standardizes one link: add it with '
            'link.add_hook(...), not as a context manager')

    def __exit__(self, *exc):
        raise NotImplementedError(
            'WeightStandardization is not a context manager')

    def added(self, link):
        if link is None:
            raise ValueError('WeightStandardization must be added to a link')
        if not hasattr(link, self.weight_name):
            raise ValueError('WeightStandardization: the link {} has no '
                             'weight {!r}'.format(type(link).__name__,
                                                  self.weight_name))
        self._initialized = getattr(link, self.weight_name).array is not None

    def deleted(self, link):
        self._initialized = False

    def forward_preprocess(self, cb_args):
        link = cb_args.link
        weight = getattr(link, self.weight_name)
        if weight.array is None:
            if not cb_args.args:
                raise ValueError(
                    'WeightStandardization: the weight {!r} of {} is not '
                    'initialised and there is no input to infer its shape'
                    .format(self.weight_name, type(link).__name__))
            link._initialize_params(self._in_size(link, cb_args.args[0]))
            weight = getattr(link, self.weight_name)
        self._initialized = True
        # The link sees the standardized weight (a Variable) during its
        # forward; the Parameter is put back afterwards.
        self.original_weight = weight
        setattr(link, self.weight_name, self.standardize(weight))

    def forward_postprocess(self, cb_args):
        setattr(cb_args.link, self.weight_name, self.original_weight)

    def standardize(self, weight):
        """``weight`` (a Variable) with each output filter standardized."""
        from chainer_core import functions as F
        flat = F.reshape(weight, (weight.shape[0], -1))
        mean = F.broadcast_to(F.mean(flat, axis=1, keepdims=True),
                              flat.shape)
        centered = flat - mean
        var = F.mean(centered * centered, axis=1, keepdims=True)
        std = F.broadcast_to(F.sqrt(var + self.eps), flat.shape)
        return F.reshape(centered / std, weight.shape)

    @staticmethod
    def _in_size(link, x):
        from chainer_core.links.connection.linear import Linear
        if isinstance(link, Linear):
            size = 1
            for s in x.shape[1:]:
                size *= s
            return size
        return x.shape[1]
