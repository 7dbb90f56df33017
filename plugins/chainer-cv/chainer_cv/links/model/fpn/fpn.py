import chainer_core as chainer
import chainer_core.functions as F
from chainer_core import initializers
import chainer_core.links as L


class FPN(chainer.Chain):
    """A feature pyramid (`Lin et al. <https://arxiv.org/abs/1612.03144>`_)
    on top of a backbone.

    ``base`` returns ``n_base_output`` feature maps, finest first, each half
    the size of the one before (ResNet's ``res2`` to ``res5``). From the
    coarsest down, a 1x1 lateral convolution (``inner[i]``) brings a map to
    256 channels and adds the coarser result upsampled twice (nearest
    neighbour); a 3x3 convolution (``outer[i]``) smooths each sum. The
    levels ``scales`` asks for beyond the backbone's are the coarsest one
    subsampled by 2, again and again.

    Args:
        base (~chainer.Link): The backbone; its ``mean`` is the
            pyramid's.
        n_base_output (int): Feature maps ``base`` returns.
        scales (tuple of floats): Feature cells per input pixel of each
            level, finest first (``1 / 4`` to ``1 / 64`` on ResNet).
    """

    def __init__(self, base, n_base_output, scales):
        super().__init__()
        init = initializers.GlorotNormal()
        with self.init_scope():
            self.base = base
            self.inner = chainer.ChainList(*[
                L.Convolution2D(None, 256, 1, initialW=init)
                for _ in range(n_base_output)])
            self.outer = chainer.ChainList(*[
                L.Convolution2D(256, 256, 3, pad=1, initialW=init)
                for _ in range(n_base_output)])
        self.scales = scales
        self.n_base_output = n_base_output

    @property
    def mean(self):
        """The backbone's mean, subtracted from the images."""
        return self.base.mean

    def forward(self, x):
        """The pyramid: ``len(scales)`` maps of 256 channels, finest
        first."""
        hs = list(self.base(x))
        top = None
        for i in reversed(range(self.n_base_output)):
            lateral = self.inner[i](hs[i])
            if top is not None:
                lateral = lateral + F.unpooling_2d(top, 2, cover_all=False)
            hs[i] = top = lateral
        hs = [outer(h) for outer, h in zip(self.outer, hs)]
        while len(hs) < len(self.scales):
            hs.append(F.max_pooling_2d(hs[-1], 1, stride=2,
                                       cover_all=False))
        return hs
