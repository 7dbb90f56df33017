"""discriminative_margin_based_clustering_loss: pull and push forces on
pixel embeddings for instance segmentation."""
import numbers

from chainer_core.functions.loss import _util
from chainer_core.variable import as_array, as_variable


def _l1(v, axis):
    from chainer_core.functions.math.sum import sum as sum_
    # |v| with a constant sign: the derivative is sign(v), 0 at 0.
    return sum_(v * v.xp.sign(v.array), axis=axis)


def _l2(v, axis):
    """sqrt(sum(v**2)) whose gradient is 0, not NaN, where v is 0."""
    from chainer_core.functions.math.sum import sum as sum_
    sq = sum_(v * v, axis=axis)
    zero = (sq.array == 0).astype(sq.dtype)
    return (sq + zero) ** 0.5 - zero


def _pixels(labels, n_instance, dtype, xp):
    """Masks (C, B, P) of the pixels of instances 1..C."""
    flat = labels.reshape(labels.shape[0], -1)
    ids = xp.arange(1, n_instance + 1).reshape(-1, 1, 1)
    return (flat[None] == ids).astype(dtype)


def discriminative_margin_based_clustering_loss(
        embeddings, labels, delta_v, delta_d, max_embedding_dim, norm=1,
        alpha=1.0, beta=1.0, gamma=0.001):
    """Discriminative margin-based clustering loss (De Brabandere et al.,
    2017, https://arxiv.org/abs/1708.02551) for instance segmentation.

    Instance :math:`c` (``c = 1 .. C``, ``C = max_embedding_dim``) is the set
    of pixels labelled ``c`` (other labels, e.g. 0 for the background, belong
    to no instance); :math:`\\mu_{cb}` is the mean embedding of its pixels in
    image :math:`b` (0 when it has none) and :math:`\\|\\cdot\\|` the L1 or
    L2 norm over the embedding axis. Three terms are returned:

    - variance (pull): :math:`\\frac{1}{C} \\sum_c \\frac{1}{N_c}
      \\sum_{b, p \\in c} \\max(\\|\\mu_{cb} - e_{bp}\\| - \\delta_v, 0)^2`,
      :math:`N_c` the pixels of instance :math:`c` over the batch (at
      least 1);
    - distance (push): :math:`\\frac{1}{B\\,C(C-1)/2} \\sum_{c_a < c_b}
      \\sum_b \\max(2 \\delta_d - \\|\\mu_{c_a b} - \\mu_{c_b b}\\|, 0)^2`;
    - regularisation: :math:`\\frac{1}{C B} \\sum_c \\|\\mu_c\\|`, the norm
      taken over the images and the embedding axis together.

    Args:
        embeddings (Variable or array): ``(B, C, H, W)``, float16/32/64.
        labels (array): instance labels ``(B, H, W)``, integers.
        delta_v (float): distance to the mean below which a pixel is not
            pulled.
        delta_d (float): half the distance between means beyond which they
            are not pushed.
        max_embedding_dim (int): ``C``: the embedding size, which is also
            the number of instances considered.
        norm (int): 1 or 2.
        alpha, beta, gamma (float): weights of the three terms.

    Returns:
        tuple of three 0-dim Variables: ``alpha`` times the variance term,
        ``beta`` times the distance term, ``gamma`` times the regularisation
        term; differentiable by ``embeddings``.
    """
    from chainer_core.functions.activation.relu import relu
    from chainer_core.functions.array.reshape import reshape
    from chainer_core.functions.array.transpose import transpose
    from chainer_core.functions.math.matmul import matmul
    from chainer_core.functions.math.sum import sum as sum_
    name = 'discriminative_margin_based_clustering_loss'
    if not isinstance(max_embedding_dim, numbers.Integral) or \
            max_embedding_dim <= 0:
        raise ValueError('{}: max_embedding_dim must be a positive int, got '
                         '{!r}'.format(name, max_embedding_dim))
    if norm not in (1, 2):
        raise ValueError('{}: norm must be 1 or 2, got {!r}'.format(
            name, norm))
    emb = as_variable(embeddings)
    labels = as_array(labels)
    if emb.ndim != 4 or emb.dtype.kind != 'f':
        raise TypeError('{}: embeddings must be a float array of shape '
                        '(B, C, H, W), got {} {}'.format(
                            name, emb.dtype, emb.shape))
    if emb.shape[1] != max_embedding_dim:
        raise ValueError('{}: embeddings.shape[1] ({}) must equal '
                         'max_embedding_dim ({})'.format(
                             name, emb.shape[1], max_embedding_dim))
    if not hasattr(labels, 'dtype') or labels.dtype.kind not in 'iu' or \
            labels.shape != (emb.shape[0],) + emb.shape[2:]:
        raise TypeError('{}: labels must be an integer array of shape {}, '
                        'got {}'.format(name, (emb.shape[0],) + emb.shape[2:],
                                        getattr(labels, 'shape', labels)))
    norm_of = _l1 if norm == 1 else _l2
    xp = emb.xp
    n_batch, dim, height, width = emb.shape
    n_inst = max_embedding_dim
    n_pix = height * width
    dtype = emb.dtype

    masks = _pixels(labels, n_inst, dtype, xp)               # (C, B, P)
    counts = masks.sum(axis=2)                               # (C, B)
    e = reshape(emb, (n_batch, dim, n_pix))                  # (B, D, P)
    sums = matmul(e, xp.ascontiguousarray(masks.transpose(1, 2, 0)))
    inv = (1 / xp.maximum(counts, 1)).T.astype(dtype)        # (B, C)
    means = sums * xp.broadcast_to(inv[:, None, :], sums.shape)
    means = transpose(means, (2, 0, 1))                      # (C, B, D)

    l_reg = sum_(norm_of(reshape(means, (n_inst, n_batch * dim)), 1)) * \
        (1.0 / (n_inst * n_batch))

    shape = (n_inst, n_batch, dim, n_pix)
    centre = _util.broadcast_like(
        reshape(means, (n_inst, n_batch, dim, 1)), shape)
    spread = (centre - _util.broadcast_like(
        reshape(e, (1, n_batch, dim, n_pix)), shape)) * \
        xp.broadcast_to(masks[:, :, None, :], shape)
    pull = relu(norm_of(spread, 2) - delta_v)                 # (C, B, P)
    per_instance = sum_(pull * pull, axis=(1, 2))
    total = xp.maximum(masks.sum(axis=(1, 2)), 1).astype(dtype)
    l_var = sum_(per_instance / total) * (1.0 / n_inst)

    pair_shape = (n_inst, n_inst, n_batch, dim)
    gap = _util.broadcast_like(
        reshape(means, (n_inst, 1, n_batch, dim)), pair_shape) - \
        _util.broadcast_like(
            reshape(means, (1, n_inst, n_batch, dim)), pair_shape)
    push = relu(2 * delta_d - norm_of(gap, 3))               # (C, C, B)
    upper = xp.triu(xp.ones((n_inst, n_inst), dtype=dtype), 1)
    n_pair = n_inst * (n_inst - 1) // 2
    l_dist = sum_(push * push * xp.broadcast_to(upper[:, :, None],
                                                push.shape)) * \
        (1.0 / max(n_pair * n_batch, 1))
    return l_var * alpha, l_dist * beta, l_reg * gamma
