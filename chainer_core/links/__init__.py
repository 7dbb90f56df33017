"""Links (Chainer's ``chainer.links``)."""
from chainer_core.links.activation.maxout import Maxout  # NOQA
from chainer_core.links.activation.prelu import PReLU  # NOQA
from chainer_core.links.activation.simplified_dropconnect import (  # NOQA
    SimplifiedDropconnect)
from chainer_core.links.activation.swish import Swish  # NOQA
from chainer_core.links.connection.bias import Bias  # NOQA
from chainer_core.links.connection.bilinear import Bilinear  # NOQA
from chainer_core.links.connection.convolution_2d import (  # NOQA
    Convolution2D)
from chainer_core.links.connection.convolution_nd import (  # NOQA
    Convolution1D, Convolution3D, ConvolutionND)
from chainer_core.links.connection.deconvolution_2d import (  # NOQA
    Deconvolution2D)
from chainer_core.links.connection.deconvolution_nd import (  # NOQA
    Deconvolution1D, Deconvolution3D, DeconvolutionND)
from chainer_core.links.connection.deformable_convolution_2d import (  # NOQA
    DeformableConvolution2D)
from chainer_core.links.connection.depthwise_convolution_2d import (  # NOQA
    DepthwiseConvolution2D)
from chainer_core.links.connection.dilated_convolution_2d import (  # NOQA
    DilatedConvolution2D)
from chainer_core.links.connection.embed_id import EmbedID  # NOQA
from chainer_core.links.connection.highway import Highway  # NOQA
from chainer_core.links.connection.inception import Inception  # NOQA
from chainer_core.links.connection.inceptionbn import InceptionBN  # NOQA
from chainer_core.links.connection.linear import Linear  # NOQA
from chainer_core.links.connection.local_convolution_2d import (  # NOQA
    LocalConvolution2D)
from chainer_core.links.connection.mlp_convolution_2d import (  # NOQA
    MLPConvolution2D)
from chainer_core.links.connection.parameter import Parameter  # NOQA
from chainer_core.links.connection.scale import Scale  # NOQA
from chainer_core.links.loss.black_out import BlackOut  # NOQA
from chainer_core.links.loss.crf1d import CRF1d  # NOQA
from chainer_core.links.loss.hierarchical_softmax import (  # NOQA
    BinaryHierarchicalSoftmax)
from chainer_core.links.loss.negative_sampling import NegativeSampling  # NOQA
from chainer_core.links.model.classifier import Classifier  # NOQA
from chainer_core.links.model.vision.googlenet import GoogLeNet  # NOQA
from chainer_core.links.model.vision.resnet import ResNet101Layers  # NOQA
from chainer_core.links.model.vision.resnet import ResNet152Layers  # NOQA
from chainer_core.links.model.vision.resnet import ResNet50Layers  # NOQA
from chainer_core.links.model.vision.vgg import VGG16Layers  # NOQA
from chainer_core.links.model.vision.vgg import VGG19Layers  # NOQA
from chainer_core.links.normalization.batch_normalization import (  # NOQA
    BatchNormalization)
from chainer_core.links.normalization.batch_renormalization import (  # NOQA
    BatchRenormalization)
from chainer_core.links.normalization.decorrelated_batch_normalization \
    import DecorrelatedBatchNormalization  # NOQA
from chainer_core.links.normalization.group_normalization import (  # NOQA
    GroupNormalization)
from chainer_core.links.normalization.layer_normalization import (  # NOQA
    LayerNormalization)
from chainer_core.links.rnn import GRU  # NOQA
from chainer_core.links.rnn import LSTM  # NOQA
from chainer_core.links.rnn import NStepBiGRU  # NOQA
from chainer_core.links.rnn import NStepBiLSTM  # NOQA
from chainer_core.links.rnn import NStepBiRNNReLU  # NOQA
from chainer_core.links.rnn import NStepBiRNNTanh  # NOQA
from chainer_core.links.rnn import NStepGRU  # NOQA
from chainer_core.links.rnn import NStepLSTM  # NOQA
from chainer_core.links.rnn import NStepRNNReLU  # NOQA
from chainer_core.links.rnn import NStepRNNTanh  # NOQA
from chainer_core.links.rnn import StatefulGRU  # NOQA
from chainer_core.links.rnn import StatefulPeepholeLSTM  # NOQA
from chainer_core.links.rnn import StatelessGRU  # NOQA
from chainer_core.links.rnn import StatelessLSTM  # NOQA
from chainer_core.links.rnn import StatefulMGU  # NOQA
from chainer_core.links.rnn import StatelessMGU  # NOQA
from chainer_core.links.rnn import ChildSumTreeLSTM  # NOQA
from chainer_core.links.rnn import NaryTreeLSTM  # NOQA
from chainer_core.links.rnn import StatefulZoneoutLSTM  # NOQA
