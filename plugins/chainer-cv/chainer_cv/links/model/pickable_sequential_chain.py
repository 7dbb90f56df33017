import chainer_core as chainer


class PickableSequentialChain(chainer.Chain):
    """A chain that runs its layers in order and returns the layers it
    picks.

    Every callable (link or function) assigned to an attribute inside
    :meth:`init_scope` becomes a layer, in the order of assignment; its
    name joins :obj:`layer_names`. A call feeds the input through the
    layers in turn and returns the output of the layer named by
    :obj:`pick` (a name), or a tuple of outputs when :obj:`pick` is a
    list or tuple of names, stopping after the last picked layer.
    :obj:`pick` is the last layer by default.

    .. admonition:: Example

        >>> model = ResNet50()
        >>> model.pick = ['res2', 'res5']
        >>> res2, res5 = model(imgs)
        >>> model.remove_unused()  # the layers after res5 go
    """

    def __init__(self):
        super().__init__()
        self.layer_names = []
        self._pick = None
        self._return_tuple = False

    def __setattr__(self, name, value):
        super().__setattr__(name, value)
        if self.within_init_scope and callable(value) and \
                name not in self.layer_names:
            self.layer_names.append(name)

    def __delattr__(self, name):
        if self._pick is not None and name in self._pick:
            raise AttributeError('layer {} is picked: it cannot be deleted'
                                 .format(name))
        super().__delattr__(name)
        if name in self.layer_names:
            self.layer_names.remove(name)

    @property
    def pick(self):
        """The name, or tuple of names, of the layers a call returns."""
        if self._pick is None:
            return self.layer_names[-1]
        return self._pick if self._return_tuple else self._pick[0]

    @pick.setter
    def pick(self, pick):
        if pick is None:
            self._pick, self._return_tuple = None, False
            return
        return_tuple = isinstance(pick, (list, tuple))
        names = tuple(pick) if return_tuple else (pick,)
        for name in names:
            if name not in self.layer_names:
                raise ValueError('pick: {!r} is not a layer; the layers are '
                                 '{}'.format(name, self.layer_names))
        self._pick, self._return_tuple = names, return_tuple

    def _picked_names(self):
        return self._pick or (self.layer_names[-1],)

    def remove_unused(self):
        """Delete the layers after the last picked one: a call never
        reaches them."""
        picked = self._picked_names()
        last = max(self.layer_names.index(name) for name in picked)
        for name in self.layer_names[last + 1:]:
            delattr(self, name)

    def forward(self, x):
        """The outputs of the picked layers for input ``x``."""
        picked = self._picked_names()
        remaining = set(picked)
        outputs = {}
        h = x
        for name in self.layer_names:
            h = getattr(self, name)(h)
            if name in remaining:
                outputs[name] = h
                remaining.discard(name)
                if not remaining:
                    break
        if self._return_tuple:
            return tuple(outputs[name] for name in picked)
        return outputs[picked[0]]
