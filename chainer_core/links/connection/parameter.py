"""Parameter: a link holding one parameter array."""
from chainer_core.link import Link
from chainer_core.variable import Parameter as _Parameter


class Parameter(Link):
    """A link whose only parameter is ``W``, initialised with ``array``;
    calling it returns ``W``.

    It makes a free-standing array learnable by an optimizer (or part of a
    :class:`~chainer_core.Chain`).

    Args:
        array: the initial value (an array of any device; it is used as
            the parameter's array).

    Attributes:
        W (~chainer_core.Parameter): the parameter.

    .. admonition:: Example

        >>> p = L.Parameter(np.zeros((2, 3), np.float32))
        >>> p().shape
        (2, 3)
    """

    def __init__(self, array):
        super().__init__()
        with self.init_scope():
            self.W = _Parameter(array)

    def forward(self, volatile='off'):
        """``W`` (``volatile`` is ignored; it is kept for Chainer v1
        code)."""
        return self.W
