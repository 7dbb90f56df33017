from chainer_core.functions.connection.linear import linear  # NOQA
