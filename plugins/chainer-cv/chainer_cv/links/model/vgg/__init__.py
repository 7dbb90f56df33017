from chainer_cv.links.model.vgg.vgg16 import VGG16  # NOQA
