"""EmbedID: a lookup table of vectors indexed by integer ids."""
from chainer_core import initializers
from chainer_core.functions.connection.embed_id import embed_id
from chainer_core.link import Link
from chainer_core.links._checks import check_size
from chainer_core.variable import Parameter


class EmbedID(Link):
    """Embedding layer (see :func:`~chainer_core.functions.embed_id`).

    Args:
        in_size (int): the number of ids (rows of ``W``).
        out_size (int): the size of each vector.
        initialW: initializer of ``W`` (default: standard normal).
        ignore_label (int or None): ids with this value give zero vectors.

    Attributes:
        W (Parameter): ``(in_size, out_size)``.
    """

    ignore_label = None

    def __init__(self, in_size, out_size, initialW=None, ignore_label=None):
        in_size = check_size('EmbedID', 'in_size', in_size)
        out_size = check_size('EmbedID', 'out_size', out_size)
        super().__init__()
        self.ignore_label = ignore_label
        if initialW is None:
            initialW = initializers.Normal(1.0)
        with self.init_scope():
            self.W = Parameter(initializers._get_initializer(initialW),
                               (in_size, out_size))

    @classmethod
    def from_params(cls, W, ignore_label=None):
        """An EmbedID holding ``W`` ``(in_size, out_size)``, copied into a
        parameter of the default dtype."""
        in_size, out_size = W.shape
        return cls(in_size, out_size, initialW=W, ignore_label=ignore_label)

    @property
    def printable_specs(self):
        yield 'in_size', self.W.shape[0]
        yield 'out_size', self.W.shape[1]
        yield 'ignore_label', self.ignore_label

    def forward(self, x):
        """The rows of ``W`` picked by the integer ids ``x``."""
        return embed_id(x, self.W, ignore_label=self.ignore_label)
