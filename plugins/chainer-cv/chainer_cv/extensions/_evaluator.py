"""What the evaluators of ChainerCV share: sweep the iterator with
``target.predict`` and report the metrics of the whole set at once."""
import copy

import numpy

from chainer_core import reporter
from chainer_core.backends import cuda
from chainer_core.training import extensions


class PredictionEvaluator(extensions.Evaluator):
    """An evaluator of ``target.predict`` over the examples of
    ``iterator``, whose metrics are computed from all the predictions
    together (an AP is not a mean over batches).

    Each example is ``(img, *ground_truth)``; ``target.predict(imgs)``
    gets the images of a batch and returns a tuple of per-image
    sequences, or one sequence. A subclass implements :meth:`compute`.
    """

    def __init__(self, iterator, target, label_names=None):
        super().__init__(iterator, target)
        self.label_names = label_names

    def evaluate(self):
        """Predict over the whole iterator and report the metrics, under
        the target's observer name (``main/map`` ...).

        Returns:
            dict: the reported values.
        """
        target = self._targets['main']
        preds, gts = predict_over(self._iterators['main'], target.predict)
        report = self.compute(preds, gts)
        observation = {}
        with reporter.report_scope(observation):
            reporter.report(report, target)
        return observation

    def compute(self, preds, gts):
        """The dict of values to report.

        Args:
            preds (tuple of lists): the outputs of ``predict``, each a list
                with one entry per image.
            gts (tuple of lists): the ground truths of the examples (all
                but the image), each a list with one entry per image.
        """
        raise NotImplementedError

    def check_label_names(self, n_class):
        """Raise if labels ``[0, n_class)`` were seen that have no name."""
        if self.label_names is not None and n_class > len(self.label_names):
            raise ValueError(
                '{}: label_names names {} classes, but labels up to {} were '
                'predicted or in the ground truth'.format(
                    type(self).__name__, len(self.label_names), n_class - 1))

    def report_per_label(self, report, key, values):
        """``report['<key>/<name>']``, the value of each named label (NaN
        for a label never seen)."""
        if self.label_names is None:
            return
        self.check_label_names(len(values))
        for label, name in enumerate(self.label_names):
            report['{}/{}'.format(key, name)] = \
                values[label] if label < len(values) else numpy.nan


def predict_over(iterator, predict):
    """``predict`` the images of every batch of ``iterator``.

    Returns:
        tuple: the outputs (a tuple of lists, one entry per image, whether
        ``predict`` returned a tuple or a single sequence) and the ground
        truths (a tuple of lists).
    """
    if hasattr(iterator, 'reset'):
        iterator.reset()
        it = iterator
    else:
        it = copy.copy(iterator)
    preds, gts = None, None
    for batch in it:
        examples = [example if isinstance(example, tuple) else (example,)
                    for example in batch]
        outputs = predict([example[0] for example in examples])
        if not isinstance(outputs, tuple):
            outputs = (outputs,)
        if preds is None:
            preds = tuple([] for _ in outputs)
            gts = tuple([] for _ in examples[0][1:])
        for values, output in zip(preds, outputs):
            output = list(output)
            if len(output) != len(examples):
                raise ValueError(
                    'predict returned {} results for a batch of {} images'
                    .format(len(output), len(examples)))
            values.extend(cuda.to_cpu(value) for value in output)
        for example in examples:
            for values, value in zip(gts, example[1:]):
                values.append(value)
    if preds is None:
        raise ValueError('the iterator gave no example to evaluate')
    return preds, gts


class COCOEvaluator(PredictionEvaluator):
    """An evaluator by the MS COCO metrics.

    Each example is ``(img, region, label)`` or ``(img, region, label,
    area, crowded)``. A subclass sets ``evaluation``, the function of
    :mod:`chainer_cv.evaluations` to call, and ``region``, ``'bbox'`` or
    ``'mask'``, for the error messages.
    """

    evaluation = None
    region = None

    def compute(self, preds, gts):
        if len(gts) == 2:
            gts = (*gts, None, None)
        elif len(gts) != 4:
            raise ValueError(
                '{0}: examples must be (img, {1}, label) or (img, {1}, '
                'label, area, crowded), got {2} values'.format(
                    type(self).__name__, self.region, len(gts) + 1))
        result = self.evaluation(*preds, *gts)
        report = {key: value for key, value in result.items()
                  if key.startswith(('map/', 'mar/'))}
        for key, values in result.items():
            if key.startswith(('ap/', 'ar/')):
                self.report_per_label(report, key, values)
        return report
