"""Sliceable data sets: views that select examples and keys without loading
the data they leave out."""
from chainer_cv.chainer_experimental.datasets.sliceable.concatenated_dataset \
    import ConcatenatedDataset  # NOQA
from chainer_cv.chainer_experimental.datasets.sliceable.getter_dataset \
    import GetterDataset  # NOQA
from chainer_cv.chainer_experimental.datasets.sliceable.sliceable_dataset \
    import SliceableDataset  # NOQA
from chainer_cv.chainer_experimental.datasets.sliceable.transform_dataset \
    import TransformDataset  # NOQA
from chainer_cv.chainer_experimental.datasets.sliceable.tuple_dataset \
    import TupleDataset  # NOQA
