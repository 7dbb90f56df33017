import chainer_core


class ConstantStubLink(chainer_core.Link):
    """A link that returns the same arrays whatever its input.

    Stands in for a real network in tests of code that calls a link (e.g.
    a model's ``predict``). The arrays move with the link
    (:meth:`to_device`, ``to_cpu``, ...).

    Args:
        outputs (array or tuple of arrays): What :meth:`forward` returns,
            wrapped in :class:`~chainer_core.Variable`.

    .. admonition:: Example

        >>> link = ConstantStubLink(numpy.zeros((2, 10), numpy.float32))
        >>> link(numpy.empty((2, 3, 8, 8), numpy.float32)).shape
        (2, 10)
    """

    def __init__(self, outputs):
        super().__init__()
        self._is_tuple = isinstance(outputs, tuple)
        outputs = outputs if self._is_tuple else (outputs,)
        self._names = []
        for i, output in enumerate(outputs):
            if not hasattr(output, 'shape'):
                raise ValueError('ConstantStubLink: outputs must be arrays; '
                                 'outputs[{}] is {}'.format(
                                     i, type(output).__name__))
            name = '_output{}'.format(i)
            self.add_persistent(name, output)
            self._names.append(name)

    def forward(self, *args, **kwargs):
        """The outputs as :class:`~chainer_core.Variable` (a tuple when
        ``outputs`` was one); the arguments are ignored."""
        outputs = tuple(chainer_core.Variable(getattr(self, name))
                        for name in self._names)
        return outputs if self._is_tuple else outputs[0]

