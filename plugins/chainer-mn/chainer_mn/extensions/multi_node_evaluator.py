"""create_multi_node_evaluator: evaluation averaged over the processes."""
import types


def _mean_over_ranks(results):
    """The mean of every key over the processes that reported it."""
    keys = sorted({k for r in results for k in r})
    out = {}
    for k in keys:
        values = [r[k] for r in results if k in r]
        total = values[0]
        for v in values[1:]:
            total = total + v
        out[k] = total / len(values)
    return out


def create_multi_node_evaluator(actual_evaluator, communicator):
    """Make an evaluator report the mean over all processes.

    Each process evaluates its own part of the validation set (see
    :func:`~chainer_mn.scatter_dataset`); the means each one computed are
    then averaged over the processes, and every process reports the same
    values. With parts of equal length (``force_equal_length=True``) this
    is the mean over the whole set.

    Args:
        actual_evaluator: a :class:`~chainer_core.training.extensions.
            Evaluator` (or any object with ``evaluate()`` returning a dict).
        communicator: a chainer_mn communicator.

    Returns:
        ``actual_evaluator``, whose ``evaluate`` now averages.
    """
    original = actual_evaluator.evaluate

    def evaluate(self):
        local = dict(original())
        return _mean_over_ranks(communicator.allgather_obj(local))

    actual_evaluator.evaluate = types.MethodType(evaluate, actual_evaluator)
    actual_evaluator._mn_communicator = communicator
    actual_evaluator._mn_original_evaluate = original
    return actual_evaluator
