"""Bad input of evaluation functions."""
import chainer_core.functions as F

from . import bad, i32, f64, _op

ACCURACY = _op('Accuracy', 'accuracy')
bad('accuracy-t-shape',
    lambda m: F.accuracy(m((4, 3)), m.values([0, 1, 2])), ACCURACY, ('t',))
bad('accuracy-t-float', lambda m: F.accuracy(m((4, 3)), m((4,))), ACCURACY,
    ('t',))
bad('accuracy-y-int',
    lambda m: F.accuracy(m((4, 3), i32), m.values([0, 1, 2, 0])), ACCURACY,
    ('y',))
bad('accuracy-trailing-axis',
    lambda m: F.accuracy(m((4, 3, 2)), m.values([0, 1, 2, 0])), ACCURACY,
    ('y',))

BINARY = _op('BinaryAccuracy', 'binary_accuracy')
bad('binary_accuracy-shape',
    lambda m: F.binary_accuracy(m((2, 3)), m.values([0, 1, 1])), BINARY,
    ('t', 'y'))
bad('binary_accuracy-t-float',
    lambda m: F.binary_accuracy(m((2, 3)), m((2, 3))), BINARY, ('t',))

SUMMARY = _op('ClassificationSummary', 'classification_summary')
bad('classification_summary-t-float',
    lambda m: F.classification_summary(m((4, 3)), m((4,))), SUMMARY, ('t',))
bad('classification_summary-t-shape',
    lambda m: F.classification_summary(m((4, 3)), m.values([0, 1])),
    SUMMARY, ('t',))
bad('classification_summary-label-out-of-range',
    lambda m: F.classification_summary(m((4, 3)), m.values([0, 1, 2, 3]),
                                       label_num=3), SUMMARY, ('t',))
bad('classification_summary-negative-label',
    lambda m: F.classification_summary(m((4, 3)), m.values([0, 1, -2, 0])),
    SUMMARY, ('t',))
bad('classification_summary-label_num',
    lambda m: F.classification_summary(m((4, 3)), m.values([0, 1, 2, 0]),
                                       label_num=-1), SUMMARY,
    ('label_num',))
bad('classification_summary-beta',
    lambda m: F.classification_summary(m((4, 3)), m.values([0, 1, 2, 0]),
                                       beta=0), SUMMARY, ('beta',))
bad('precision-t-float',
    lambda m: F.precision(m((4, 3)), m((4,))), _op('ClassificationSummary',
                                                   'precision'), ('t',))
bad('f1_score-label_num',
    lambda m: F.f1_score(m((4, 3)), m.values([0, 1, 2, 0]), label_num=1.5),
    _op('ClassificationSummary', 'f1_score'), ('label_num',))

R2 = _op('R2Score', 'r2_score')
bad('r2_score-shape', lambda m: F.r2_score(m((5, 3)), m((5, 2))), R2,
    ('pred', 'true'))
bad('r2_score-int', lambda m: F.r2_score(m((5, 3), i32), m((5, 3))), R2,
    ('pred',))
bad('r2_score-0dim', lambda m: F.r2_score(m(()), m(())), R2, ('pred',))
bad('r2_score-multioutput',
    lambda m: F.r2_score(m((5, 3)), m((5, 3)), multioutput='variance'), R2,
    ('multioutput',))
bad('r2_score-sample_weight-shape',
    lambda m: F.r2_score(m((5, 3)), m((5, 3)), sample_weight=m((4,))), R2,
    ('sample_weight',))
bad('r2_score-sample_weight-type',
    lambda m: F.r2_score(m((5, 3)), m((5, 3)), sample_weight=[1.0] * 5), R2,
    ('sample_weight',))
bad('r2_score-pred-dtype-mismatch-allowed-but-shape',
    lambda m: F.r2_score(m((5, 3)), m((3, 5), f64)), R2, ('pred', 'true'))
