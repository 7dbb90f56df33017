import chainer_core as chainer
import chainer_core.functions as F
from chainer_core import initializers
import chainer_core.links as L


class Multibox(chainer.Chain):
    """The heads of SSD: a 3x3 convolution per feature map predicts the
    offsets (``loc``) and the class scores (``conf``) of its default
    boxes.

    A feature map with aspect ratios ``ar`` has ``2 * (len(ar) + 1)``
    default boxes per position, as :class:`MultiboxCoder` lays them out.

    Args:
        n_class (int): classes, the background included.
        aspect_ratios (iterable of tuples of ints): the aspect ratios of
            each feature map (``(2,)`` adds the ratios 2 and 1/2).
        initialW (callable): weight initializer (default LeCun uniform).
        initial_bias (callable): bias initializer (default zeros).

    The children are ``loc`` and ``conf``, ChainLists of
    :class:`chainer.links.Convolution2D` in the order of the feature maps.
    """

    def __init__(self, n_class, aspect_ratios, initialW=None,
                 initial_bias=None):
        self.n_class = n_class
        self.aspect_ratios = aspect_ratios
        super().__init__()
        with self.init_scope():
            self.loc = chainer.ChainList()
            self.conf = chainer.ChainList()
        if initialW is None:
            initialW = initializers.LeCunUniform()
        if initial_bias is None:
            initial_bias = initializers.Zero()
        init = {'initialW': initialW, 'initial_bias': initial_bias}
        for ar in aspect_ratios:
            n = (len(ar) + 1) * 2
            self.loc.add_link(L.Convolution2D(n * 4, 3, pad=1, **init))
            self.conf.add_link(L.Convolution2D(
                n * self.n_class, 3, pad=1, **init))

    def _flatten(self, head, xs, width):
        # The channels of a position are its boxes times ``width``:
        # position-major order matches MultiboxCoder's default boxes.
        ys = []
        for conv, x in zip(head, xs):
            y = F.transpose(conv(x), (0, 2, 3, 1))
            ys.append(F.reshape(y, (y.shape[0], -1, width)))
        return F.concat(ys, axis=1)

    def forward(self, xs):
        """``(mb_locs, mb_confs)`` of the feature maps ``xs``: ``(B, K,
        4)`` and ``(B, K, n_class)`` for ``K`` default boxes."""
        return (self._flatten(self.loc, xs, 4),
                self._flatten(self.conf, xs, self.n_class))
