"""create_mnbn_model: a copy of a model with multi-node batch
normalization."""
import copy

from chainer_core.link import Chain, ChainList
from chainer_core.links import BatchNormalization
from chainer_mn.links.batch_normalization import MultiNodeBatchNormalization


def _convert(bn, comm, communication_backend):
    mnbn = MultiNodeBatchNormalization(
        bn.avg_mean.shape, comm, decay=bn.decay, eps=bn.eps,
        dtype=bn.avg_mean.dtype, use_gamma=bn.gamma is not None,
        use_beta=bn.beta is not None,
        communication_backend=communication_backend)
    mnbn.copyparams(bn)
    mnbn.N = bn.N
    return mnbn


def create_mnbn_model(link, comm, communication_backend='auto'):
    """A deep copy of ``link`` in which every
    :class:`~chainer_core.links.BatchNormalization` (exactly that class,
    initialised) is replaced by a :class:`MultiNodeBatchNormalization`
    with the same parameters and running statistics.

    Args:
        link (~chainer_core.Link): the model (children of Chains and
            ChainLists are converted).
        comm: a chainer_mn communicator.
        communication_backend (str): see MultiNodeBatchNormalization.

    Returns:
        The converted copy.
    """
    if type(link) is BatchNormalization:
        if link.avg_mean is None:
            raise ValueError('create_mnbn_model: a BatchNormalization is not '
                             'initialised yet (size=None); give it a size '
                             'or run it once first')
        return _convert(link, comm, communication_backend)
    if isinstance(link, Chain):
        converted = [(name, create_mnbn_model(child, comm,
                                              communication_backend))
                     for name, child in link.namedlinks(skipself=True)
                     if '/' not in name[1:]]
        new = copy.deepcopy(link)
        for name, child in converted:
            name = name[1:]
            delattr(new, name)
            with new.init_scope():
                setattr(new, name, child)
        return new
    if isinstance(link, ChainList):
        converted = [create_mnbn_model(child, comm, communication_backend)
                     for child in link]
        new = copy.deepcopy(link)
        # ChainList has no public way to replace a child in place.
        for i, child in enumerate(converted):
            child.name = str(i)
            new._children[i] = child
        return new
    return copy.deepcopy(link)
