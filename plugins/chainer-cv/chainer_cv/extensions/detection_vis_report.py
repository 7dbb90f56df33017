"""Images of the predictions of a detector, saved during training."""
import copy
import os
import warnings

from chainer_core.backends import cuda
from chainer_core.training import extension

from chainer_cv.visualizations import vis_bbox


def _matplotlib_available():
    try:
        import matplotlib  # NOQA
    except ImportError:
        return False
    return True


class DetectionVisReport(extension.Extension):
    """Save, for each example of ``iterator``, an image of its ground truth
    boxes above the boxes that ``target.predict`` finds.

    Each example is ``(img, bbox, label)``; ``target.predict(imgs)``
    returns ``(bboxes, labels, scores)``. The files are written in the
    trainer's ``out`` folder. Without matplotlib (``pip install
    chainer-core-cv[plot]``) it warns once when created and draws nothing,
    so that a training script still runs.

    Args:
        iterator: the examples to draw (``repeat=False``).
        target: a link with a ``predict`` method.
        label_names (sequence of str): the names of the classes.
        filename (str): the name of each file, formatted with
            ``iteration`` (of the trainer) and ``index`` (of the example
            in the iterator); its extension picks the format.
    """

    trigger = 1, 'epoch'

    def __init__(self, iterator, target, label_names=None,
                 filename='detection_iter={iteration}_idx={index}.jpg'):
        self.iterator = iterator
        self.target = target
        self.label_names = label_names
        self.filename = filename
        self._available = _matplotlib_available()
        if not self._available:
            warnings.warn(
                'DetectionVisReport: matplotlib is not installed, so no '
                'image is drawn; install it with '
                '`pip install chainer-core-cv[plot]`', RuntimeWarning)

    def __call__(self, trainer):
        if not self._available:
            return
        # A figure outside pyplot: nothing accumulates in pyplot's list of
        # open figures over a long training, and no GUI backend is used.
        from matplotlib.figure import Figure

        if hasattr(self.iterator, 'reset'):
            self.iterator.reset()
            it = self.iterator
        else:
            it = copy.copy(self.iterator)
        index = 0
        for batch in it:
            imgs = [example[0] for example in batch]
            pred_bboxes, pred_labels, pred_scores = self.target.predict(imgs)
            for (img, gt_bbox, gt_label), pred_bbox, pred_label, \
                    pred_score in zip(batch, pred_bboxes, pred_labels,
                                      pred_scores):
                fig = Figure()
                ax_gt = fig.add_subplot(2, 1, 1)
                ax_gt.set_title('ground truth')
                vis_bbox(img, gt_bbox, gt_label,
                         label_names=self.label_names, ax=ax_gt)
                ax_pred = fig.add_subplot(2, 1, 2)
                ax_pred.set_title('prediction')
                vis_bbox(img, cuda.to_cpu(pred_bbox),
                         cuda.to_cpu(pred_label), cuda.to_cpu(pred_score),
                         label_names=self.label_names, ax=ax_pred)
                out = os.path.join(trainer.out, self.filename.format(
                    index=index, iteration=trainer.updater.iteration))
                fig.savefig(out, bbox_inches='tight')
                index += 1
