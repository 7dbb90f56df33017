from chainer_core.functions.evaluation.accuracy import accuracy  # NOQA
from chainer_core.functions.evaluation.binary_accuracy import (  # NOQA
    binary_accuracy)
from chainer_core.functions.evaluation.classification_summary import (  # NOQA
    classification_summary, f1_score, fbeta_score, precision, recall)
from chainer_core.functions.evaluation.r2_score import r2_score  # NOQA
