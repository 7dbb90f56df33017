"""Classifier: a predictor with a loss and an accuracy."""
from chainer_core import reporter
from chainer_core.functions.evaluation.accuracy import accuracy
from chainer_core.functions.loss.softmax_cross_entropy import (
    softmax_cross_entropy)
from chainer_core.link import Chain


class Classifier(Chain):
    """Wrap a predictor: ``forward(*args)`` computes the loss.

    The last argument is the label (``label_key=-1``) unless ``label_key``
    says otherwise (an int position or a keyword name). Reports ``loss``
    and, if ``compute_accuracy``, ``accuracy``.

    Args:
        predictor (Link): the model predicting scores.
        lossfun: loss function (default: softmax cross entropy).
        accfun: accuracy function (default: accuracy).
        label_key (int or str): where the label is among the arguments.
    """

    compute_accuracy = True

    def __init__(self, predictor,
                 lossfun=softmax_cross_entropy, accfun=accuracy,
                 label_key=-1):
        if not isinstance(label_key, (int, str)):
            raise TypeError('label_key must be int or str, got {}'.format(
                type(label_key).__name__))
        super().__init__()
        self.lossfun = lossfun
        self.accfun = accfun
        self.y = None
        self.loss = None
        self.accuracy = None
        self.label_key = label_key
        with self.init_scope():
            self.predictor = predictor

    def forward(self, *args, **kwargs):
        if isinstance(self.label_key, int):
            if not -len(args) <= self.label_key < len(args):
                raise ValueError('Classifier: label_key {} is out of range '
                                 'for {} positional arguments'.format(
                                     self.label_key, len(args)))
            t = args[self.label_key]
            if self.label_key == -1:
                args = args[:-1]
            else:
                args = args[:self.label_key] + args[self.label_key + 1:]
        else:
            if self.label_key not in kwargs:
                raise ValueError('Classifier: label_key {!r} is not among '
                                 'the keyword arguments'.format(
                                     self.label_key))
            t = kwargs.pop(self.label_key)
        self.y = None
        self.loss = None
        self.accuracy = None
        self.y = self.predictor(*args, **kwargs)
        self.loss = self.lossfun(self.y, t)
        reporter.report({'loss': self.loss}, self)
        if self.compute_accuracy:
            self.accuracy = self.accfun(self.y, t)
            reporter.report({'accuracy': self.accuracy}, self)
        return self.loss
