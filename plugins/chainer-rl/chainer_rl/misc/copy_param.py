"""Copy parameters between links of the same structure (target networks)."""
import chainer_core


def _pairs(target_link, source_link, where):
    for name, link in (('target_link', target_link),
                       ('source_link', source_link)):
        if not isinstance(link, chainer_core.Link):
            raise TypeError('{}: {} must be a chainer_core Link, got {}'
                            .format(where, name, type(link).__name__))
    target = dict(target_link.namedparams())
    pairs = []
    for name, src in source_link.namedparams():
        if name not in target:
            raise ValueError('{}: target_link has no parameter {!r} (the '
                             'links must have the same structure)'
                             .format(where, name))
        dst = target[name]
        if dst.array is None or src.array is None:
            raise TypeError('{}: parameter {!r} is not initialized in the {}'
                            ' link'.format(where, name, 'target'
                                           if dst.array is None else 'source'))
        if dst.shape != src.shape:
            raise ValueError('{}: parameter {!r} has shape {} in target_link '
                             'but {} in source_link'.format(
                                 where, name, dst.shape, src.shape))
        pairs.append((dst.array, src.array))
    # Batch normalization statistics are state too: a target network with
    # stale running means would normalize differently.
    target_links = dict(target_link.namedlinks())
    for name, link in source_link.namedlinks():
        if isinstance(link, chainer_core.links.BatchNormalization):
            other = target_links.get(name)
            if other is None:
                raise ValueError('{}: target_link has no link {!r}'
                                 .format(where, name))
            for attr in ('avg_mean', 'avg_var'):
                src = getattr(link, attr, None)
                dst = getattr(other, attr, None)
                if src is not None and dst is not None:
                    pairs.append((dst, src))
    return pairs


def _on_device_of(dst, src):
    return chainer_core.backend.get_device_from_array(dst).send(src)


def copy_param(target_link, source_link):
    """Overwrite ``target_link``'s parameters (and batch-normalization
    statistics) with ``source_link``'s, in place."""
    for dst, src in _pairs(target_link, source_link, 'copy_param'):
        chainer_core.backend.copyto(dst, _on_device_of(dst, src))


def soft_copy_param(target_link, source_link, tau):
    """Move ``target_link`` towards ``source_link``:
    ``target = (1 - tau) * target + tau * source``, in place."""
    try:
        tau = float(tau)
    except (TypeError, ValueError):
        raise TypeError('soft_copy_param: tau must be a number, got {}'
                        .format(type(tau).__name__))
    if not 0.0 <= tau <= 1.0:
        raise ValueError('soft_copy_param: tau must be in [0, 1], got {}'
                         .format(tau))
    for dst, src in _pairs(target_link, source_link, 'soft_copy_param'):
        src = _on_device_of(dst, src)
        chainer_core.backend.copyto(dst, dst * (1.0 - tau) + src * tau)
