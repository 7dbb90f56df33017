"""Branched: several heads applied to the same input."""
import chainer_core as chainer

from chainer_rl.links.sequence import SequentialBase


class Branched(SequentialBase):
    """Call every child with the same arguments and return their outputs
    as a tuple (a policy head and a value head on one torso, say).

    Args:
        *links: callable links.

    It is a Sequential only to hold its links (so that
    ``to_factorized_noisy`` can swap them); it does not chain them.
    """

    def __init__(self, *links):
        for i, link in enumerate(links):
            if not isinstance(link, chainer.Link):
                raise TypeError('Branched: argument {} must be a Link, got '
                                '{}'.format(i, type(link).__name__))
        super().__init__(*links)

    def forward(self, *args, **kwargs):
        """Tuple of the children's outputs, in order."""
        return tuple(link(*args, **kwargs) for link in self)
