"""image transforms; the public names are in chainer_cv.transforms."""
