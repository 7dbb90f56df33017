"""Op-specific tests of the math ops."""
import chainer_core as chainer
import chainer_core.functions as F

from .. import assert_close, typed


def check_outside_graph(fn, values, dtype):
    """``fn`` returns a Variable outside the graph: it requires no
    gradient, has no creator, and backprop through it reaches nothing."""
    x = chainer.Variable(typed(values, dtype))
    y = fn(x)
    assert isinstance(y, chainer.Variable)
    assert not y.requires_grad
    assert y.creator is None
    z = F.sum(y * x)
    z.backward()
    assert_close(x.grad, y.array, dtype)
