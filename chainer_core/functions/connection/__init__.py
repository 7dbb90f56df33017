from chainer_core.functions.connection.bilinear import bilinear  # NOQA
from chainer_core.functions.connection.convolution_2d import (  # NOQA
    convolution_2d)
from chainer_core.functions.connection.convolution_nd import (  # NOQA
    convolution_nd)
from chainer_core.functions.connection.deconvolution_2d import (  # NOQA
    deconvolution_2d)
from chainer_core.functions.connection.deconvolution_nd import (  # NOQA
    deconvolution_nd)
from chainer_core.functions.connection.deformable_convolution_2d_sampler \
    import deformable_convolution_2d_sampler  # NOQA
from chainer_core.functions.connection.depthwise_convolution_2d import (  # NOQA
    depthwise_convolution_2d)
from chainer_core.functions.connection.dilated_convolution_2d import (  # NOQA
    dilated_convolution_2d)
from chainer_core.functions.connection.embed_id import embed_id  # NOQA
from chainer_core.functions.connection.linear import linear  # NOQA
from chainer_core.functions.connection.local_convolution_2d import (  # NOQA
    local_convolution_2d)
from chainer_core.functions.connection.n_step_gru import n_step_bigru  # NOQA
from chainer_core.functions.connection.n_step_gru import n_step_gru  # NOQA
from chainer_core.functions.connection.n_step_lstm import n_step_bilstm  # NOQA
from chainer_core.functions.connection.n_step_lstm import n_step_lstm  # NOQA
from chainer_core.functions.connection.n_step_rnn import n_step_birnn  # NOQA
from chainer_core.functions.connection.n_step_rnn import n_step_rnn  # NOQA
