from chainer_cv.links.model.segnet.segnet_basic import SegNetBasic  # NOQA
