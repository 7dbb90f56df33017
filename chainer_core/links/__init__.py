"""Links (Chainer's ``chainer.links``)."""
from chainer_core import _lazy

# Each link is imported on first use: together they import nearly every op.
__getattr__, __dir__ = _lazy(__name__, {
    '.activation.maxout': ('Maxout',),
    '.activation.prelu': ('PReLU',),
    '.activation.simplified_dropconnect': ('SimplifiedDropconnect',),
    '.activation.swish': ('Swish',),
    '.connection.bias': ('Bias',),
    '.connection.bilinear': ('Bilinear',),
    '.connection.convolution_2d': ('Convolution2D',),
    '.connection.convolution_nd': (
        'Convolution1D', 'Convolution3D', 'ConvolutionND'),
    '.connection.deconvolution_2d': ('Deconvolution2D',),
    '.connection.deconvolution_nd': (
        'Deconvolution1D', 'Deconvolution3D', 'DeconvolutionND'),
    '.connection.deformable_convolution_2d': ('DeformableConvolution2D',),
    '.connection.depthwise_convolution_2d': ('DepthwiseConvolution2D',),
    '.connection.dilated_convolution_2d': ('DilatedConvolution2D',),
    '.connection.embed_id': ('EmbedID',),
    '.connection.highway': ('Highway',),
    '.connection.inception': ('Inception',),
    '.connection.inceptionbn': ('InceptionBN',),
    '.connection.linear': ('Linear',),
    '.connection.local_convolution_2d': ('LocalConvolution2D',),
    '.connection.mlp_convolution_2d': ('MLPConvolution2D',),
    '.connection.parameter': ('Parameter',),
    '.connection.scale': ('Scale',),
    '.loss.black_out': ('BlackOut',),
    '.loss.crf1d': ('CRF1d',),
    '.loss.hierarchical_softmax': ('BinaryHierarchicalSoftmax',),
    '.loss.negative_sampling': ('NegativeSampling',),
    '.model.classifier': ('Classifier',),
    '.model.vision.googlenet': ('GoogLeNet',),
    '.model.vision.resnet': (
        'ResNet101Layers', 'ResNet152Layers', 'ResNet50Layers'),
    '.model.vision.vgg': ('VGG16Layers', 'VGG19Layers'),
    '.normalization.batch_normalization': ('BatchNormalization',),
    '.normalization.batch_renormalization': ('BatchRenormalization',),
    '.normalization.decorrelated_batch_normalization': (
        'DecorrelatedBatchNormalization',),
    '.normalization.group_normalization': ('GroupNormalization',),
    '.normalization.layer_normalization': ('LayerNormalization',),
    '.rnn': (
        'ChildSumTreeLSTM', 'GRU', 'LSTM', 'NaryTreeLSTM', 'NStepBiGRU',
        'NStepBiLSTM', 'NStepBiRNNReLU', 'NStepBiRNNTanh', 'NStepGRU',
        'NStepLSTM', 'NStepRNNReLU', 'NStepRNNTanh', 'StatefulGRU',
        'StatefulMGU', 'StatefulPeepholeLSTM', 'StatefulZoneoutLSTM',
        'StatelessGRU', 'StatelessLSTM', 'StatelessMGU'),
}, submodules=True)
