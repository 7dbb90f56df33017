"""FailOnNonNumber: stop training once a parameter holds NaN or Inf."""
from chainer_core.training import extension


class FailOnNonNumber(extension.Extension):
    """Raise (which ends the training loop, after the other extensions'
    error handlers and finalizers) when a parameter of any optimizer's
    target, or its gradient with ``check_grad``, holds NaN or Inf.

    Args:
        check_grad (bool): also check the gradients.

    Raises:
        RuntimeError: naming the optimizer, the parameter and the array.
    """

    def __init__(self, check_grad=True):
        self._check_grad = check_grad

    def __call__(self, trainer):
        for name, optimizer in trainer.updater.get_all_optimizers().items():
            target = optimizer.target
            for path, param in target.namedparams():
                arrays = [('value', param.array)]
                if self._check_grad:
                    arrays.append(('gradient', param.grad))
                for what, array in arrays:
                    if array is None:
                        continue
                    xp = param.xp
                    if not bool(xp.isfinite(array).all()):
                        raise RuntimeError(
                            'FailOnNonNumber: the {} of parameter {} of the '
                            'target of optimizer {!r} holds NaN or Inf at '
                            'iteration {}: the training diverged, stopping'
                            .format(what, path, name,
                                    trainer.updater.iteration))
