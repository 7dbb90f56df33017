"""The loss scale still held by a parameter's gradient."""


def loss_scale_of(param):
    """The factor ``param.grad`` is scaled by, 1 when none.

    Optimizer-wide hooks run before the update rules divide the loss scale
    out of the gradients, so a term a hook adds to a gradient (or a bound
    it compares a gradient with) is scaled alike.
    """
    scale = param._loss_scale
    return 1 if scale is None else scale
