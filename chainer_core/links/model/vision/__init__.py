"""Vision models (VGG, ResNet, GoogLeNet) with Chainer's layer names."""
