"""Differentiable pieces shared by the sampled softmax-like losses
(negative_sampling, black_out): scores of sampled rows of W, and the
gradients of x and W from the gradient of those scores."""


def sampled_scores(x, W, ids):
    """s[b, k] = W[ids[b, k]] . x[b] and the gathered rows W[ids], as
    differentiable functions of x (N, D) and W (V, D)."""
    from chainer_core.functions.array.get_item import get_item
    from chainer_core.functions.array.reshape import reshape
    from chainer_core.functions.math.sum import sum as sum_
    from chainer_core.functions.loss._util import broadcast_like
    n, d = x.shape
    w = get_item(W, (ids,))
    xb = broadcast_like(reshape(x, (n, 1, d)), w.shape)
    return sum_(w * xb, axis=2), w, xb


def input_grads(indexes, g, w, xb, ids, w_shape, w_index=2):
    """Gradients of x and W given g = dL/ds (N, K), for the inputs in
    ``indexes`` (x is input 0, W input ``w_index``, others get None)."""
    from chainer_core.functions.array.get_item import GetItemGrad
    from chainer_core.functions.array.reshape import reshape
    from chainer_core.functions.math.sum import sum as sum_
    from chainer_core.functions.loss._util import broadcast_like
    gb = broadcast_like(reshape(g, g.shape + (1,)), w.shape)
    ret = []
    for i in indexes:
        if i == 0:
            ret.append(sum_(gb * w, axis=1))
        elif i == w_index:
            ret.append(GetItemGrad((ids,), w_shape).apply((gb * xb,))[0])
        else:
            ret.append(None)
    return tuple(ret)
