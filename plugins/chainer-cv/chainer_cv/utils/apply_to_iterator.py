import itertools
import warnings

from chainer_cv.utils.unzip import unzip


def _split(batch, n_input):
    """``(inputs, rests)``: per-example tuples of the first ``n_input``
    values and of the others."""
    inputs, rests = [], []
    for example in batch:
        if not isinstance(example, tuple):
            example = (example,)
        inputs.append(example[:n_input])
        rests.append(example[n_input:])
    return inputs, rests


def _columns(rows, n):
    """Per-example tuples to ``n`` lists, one per position."""
    return tuple(list(column) for column in zip(*rows)) if rows else \
        tuple([] for _ in range(n))


def _call(func, inputs):
    outputs = func(*_columns(inputs, len(inputs[0])))
    return outputs if isinstance(outputs, tuple) else (outputs,)


def _chunks(batch, size):
    """``batch`` cut into ``size`` consecutive parts, the first ones one
    longer when it does not divide evenly."""
    q, r = divmod(len(batch), size)
    bounds = [0]
    for k in range(size):
        bounds.append(bounds[-1] + q + (k < r))
    return [batch[bounds[k]:bounds[k + 1]] for k in range(size)]


def _warn_uneven(batch_size, n_worker):
    warnings.warn(
        'apply_to_iterator: the batch size ({}) is not a multiple of the '
        'number of workers ({}); give the total batch size of all workers'
        .format(batch_size, n_worker), RuntimeWarning)


def _distributed_outputs(func, inputs, comm):
    """The outputs of ``func`` over ``inputs`` (root) computed by all
    workers; :obj:`None` everywhere once the root sends the end marker
    (``inputs`` :obj:`None`). Non-root workers get an empty tuple."""
    shares = comm.bcast_obj(
        None if inputs is None else _chunks(inputs, comm.size))
    if shares is None:
        return None
    mine = shares[comm.rank]
    gathered = comm.gather_obj(_call(func, mine) if mine else None)
    if comm.rank != 0:
        return ()
    parts = [part for part in gathered if part is not None]
    return tuple(list(itertools.chain.from_iterable(column))
                 for column in zip(*parts))


def _batches(func, iterator, n_input, hook, comm):
    """Yield ``(in_values, out_values, rest_values)`` per batch on the root.

    With ``comm`` the root broadcasts each batch's inputs, every worker
    computes its share and the root gathers the outputs; the root's
    :obj:`None` in place of a batch tells the workers to stop.
    """
    root = comm is None or comm.rank == 0
    warned = False
    while True:
        batch = next(iterator, None) if root else None
        inputs, rests = _split(batch, n_input) if batch is not None \
            else (None, None)
        if comm is None:
            if batch is None:
                return
            outputs = _call(func, inputs)
        else:
            if root and batch is not None and not warned \
                    and len(batch) % comm.size:
                _warn_uneven(len(batch), comm.size)
                warned = True
            outputs = _distributed_outputs(func, inputs, comm)
            if outputs is None:
                return
            if not root:
                continue
        in_values = _columns(inputs, n_input)
        rest_values = _columns(rests, len(rests[0]) if rests else 0)
        if hook is not None:
            hook(in_values, outputs, rest_values)
        yield in_values, outputs, rest_values


def _flatten(batches):
    return (value for batch in batches for value in batch)


def apply_to_iterator(func, iterator, n_input=1, hook=None, comm=None):
    """Apply a batch function to the batches of an iterator, lazily.

    ``iterator`` gives batches (lists) of examples, as a chainer-core
    :class:`~chainer_core.iterators.SerialIterator` does. An example is a
    tuple whose first ``n_input`` values are the inputs of ``func`` and the
    rest are passed through, or a single input value. ``func`` receives one
    list per input (``func([in0, ...], [in1, ...])``) and returns one list
    of outputs or a tuple of them.

    The first batch is processed at once, to know how many values ``func``
    returns; the others when the returned iterators are read, batch by
    batch as far as needed.

    Args:
        func: The batch function, e.g. a model's ``predict``.
        iterator: An iterator of batches; with ``comm``, only the root
            worker's is read.
        n_input (int): How many leading values of an example are inputs.
        hook: A callable called after each batch with that batch's
            ``(in_values, out_values, rest_values)``, each a tuple of
            lists. With ``comm``, only the root calls it.
        comm: A chainer-mn communicator, or :obj:`None`. With one, the
            root worker's batches are split over all workers and the
            outputs gathered on the root.

    Returns:
        ``(in_values, out_values, rest_values)``: three tuples of iterators
        of values, one iterator per input, per output of ``func`` and per
        passed-through value (empty when there are none). With ``comm``,
        non-root workers process their shares and return :obj:`None`.

    .. admonition:: Example

        >>> it = chainer.iterators.SerialIterator(
        ...     dataset, 8, repeat=False, shuffle=False)
        >>> in_values, out_values, rest_values = apply_to_iterator(
        ...     model.predict, it)
        >>> imgs, = in_values
        >>> pred_bboxes, pred_labels, pred_scores = out_values
        >>> gt_bboxes, gt_labels = rest_values
    """
    batches = _batches(func, iterator, n_input, hook, comm)
    if comm is not None and comm.rank != 0:
        for _ in batches:
            pass
        return None
    columns = unzip(batches)
    if not columns:
        return (), (), ()
    return tuple(tuple(map(_flatten, unzip(column))) for column in columns)
