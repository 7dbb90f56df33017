from chainer_core.functions.evaluation.accuracy import accuracy  # NOQA
