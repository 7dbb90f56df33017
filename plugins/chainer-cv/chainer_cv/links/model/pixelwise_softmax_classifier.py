"""The training loss of a semantic segmentation model."""
import numpy

import chainer_core as chainer
import chainer_core.functions as F


class PixelwiseSoftmaxClassifier(chainer.Chain):
    """Softmax cross entropy of a segmentation model's per-pixel scores.

    ``forward(x, t)`` runs ``predictor(x)`` to scores of shape
    ``(B, n_class, H, W)``, compares them with the labels ``t`` of shape
    ``(B, H, W)`` and reports the loss as ``loss``, so a ``Trainer``'s
    ``LogReport`` sees ``main/loss``. The scores of the last call are kept
    as ``y`` and the loss as ``loss``.

    Args:
        predictor (chainer.Link): the model, e.g. :class:`SegNetBasic`.
        ignore_label (int): pixels of this label count in neither the loss
            nor its normalization.
        class_weight (array-like or None): a weight per class, of length
            ``n_class``, multiplied into each pixel's loss; it moves with
            the link's ``to_device``.

    Example:
        >>> model = PixelwiseSoftmaxClassifier(SegNetBasic(n_class=11),
        ...                                    ignore_label=11)
        >>> loss = model(imgs, labels)  # doctest: +SKIP
    """

    def __init__(self, predictor, ignore_label=-1, class_weight=None):
        super().__init__()
        if isinstance(ignore_label, bool) or not isinstance(
                ignore_label, (int, numpy.integer)):
            raise TypeError('PixelwiseSoftmaxClassifier: ignore_label must '
                            'be an int, got {!r}'.format(ignore_label))
        if class_weight is not None:
            class_weight = numpy.asarray(
                chainer.backend.CpuDevice().send(class_weight),
                dtype=numpy.float32)
            if class_weight.ndim != 1:
                raise ValueError(
                    'PixelwiseSoftmaxClassifier: class_weight must be 1-'
                    'dimensional (one weight per class), got shape {}'
                    .format(class_weight.shape))
        with self.init_scope():
            self.predictor = predictor
        self.ignore_label = int(ignore_label)
        self.class_weight = class_weight
        self.y = None
        self.loss = None

    def device_resident_accept(self, visitor):
        super().device_resident_accept(visitor)
        if self.class_weight is not None:
            self.class_weight = visitor.visit_array(self.class_weight)

    def forward(self, x, t):
        """The mean loss over the pixels whose label is not ignored.

        Args:
            x: images ``(B, C, H, W)``.
            t: int32 labels ``(B, H, W)``.

        Returns:
            Variable: the scalar loss.
        """
        self.y = self.predictor(x)
        n_class = self.y.shape[1]
        if self.class_weight is not None and \
                self.class_weight.shape[0] != n_class:
            raise ValueError(
                'PixelwiseSoftmaxClassifier: class_weight has {} weights '
                'but the predictor gives scores of {} classes'.format(
                    self.class_weight.shape[0], n_class))
        self.loss = F.softmax_cross_entropy(
            self.y, t, class_weight=self.class_weight,
            ignore_label=self.ignore_label)
        chainer.reporter.report({'loss': self.loss}, self)
        return self.loss
