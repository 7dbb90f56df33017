"""Differentiable functions (Chainer's ``chainer.functions``).

The category packages (``activation``, ``array``, ...) hold one module per
op, as in Chainer, so that ``functions.math.sparse_matmul`` is the module;
the functions are exported here.
"""
# activation
from chainer_core.functions.activation.clipped_relu import clipped_relu  # NOQA
from chainer_core.functions.activation.clipped_relu import relu6  # NOQA
from chainer_core.functions.activation.crelu import crelu  # NOQA
from chainer_core.functions.activation.elu import elu  # NOQA
from chainer_core.functions.activation.hard_sigmoid import hard_sigmoid  # NOQA
from chainer_core.functions.activation.leaky_relu import leaky_relu  # NOQA
from chainer_core.functions.activation.log_softmax import log_softmax  # NOQA
from chainer_core.functions.activation.lstm import lstm  # NOQA
from chainer_core.functions.activation.maxout import maxout  # NOQA
from chainer_core.functions.activation.prelu import prelu  # NOQA
from chainer_core.functions.activation.relu import relu  # NOQA
from chainer_core.functions.activation.rrelu import rrelu  # NOQA
from chainer_core.functions.activation.selu import selu  # NOQA
from chainer_core.functions.activation.sigmoid import sigmoid  # NOQA
from chainer_core.functions.activation.slstm import slstm  # NOQA
from chainer_core.functions.activation.softmax import softmax  # NOQA
from chainer_core.functions.activation.softplus import softplus  # NOQA
from chainer_core.functions.activation.swish import swish  # NOQA
from chainer_core.functions.activation.tanh import tanh  # NOQA
from chainer_core.functions.activation.tree_lstm import tree_lstm  # NOQA

# array
from chainer_core.functions.array.as_strided import as_strided  # NOQA
from chainer_core.functions.array.broadcast import broadcast  # NOQA
from chainer_core.functions.array.broadcast import broadcast_to  # NOQA
from chainer_core.functions.array.cast import cast  # NOQA
from chainer_core.functions.array.concat import concat  # NOQA
from chainer_core.functions.array.copy import copy  # NOQA
from chainer_core.functions.array.depth2space import depth2space  # NOQA
from chainer_core.functions.array.diagonal import diagonal  # NOQA
from chainer_core.functions.array.dstack import dstack  # NOQA
from chainer_core.functions.array.expand_dims import expand_dims  # NOQA
from chainer_core.functions.array.flatten import flatten  # NOQA
from chainer_core.functions.array.flip import flip  # NOQA
from chainer_core.functions.array.fliplr import fliplr  # NOQA
from chainer_core.functions.array.flipud import flipud  # NOQA
from chainer_core.functions.array.get_item import get_item  # NOQA
from chainer_core.functions.array.hstack import hstack  # NOQA
from chainer_core.functions.array.im2col import im2col  # NOQA
from chainer_core.functions.array.moveaxis import moveaxis  # NOQA
from chainer_core.functions.array.pad import pad  # NOQA
from chainer_core.functions.array.pad_sequence import pad_sequence  # NOQA
from chainer_core.functions.array.permutate import permutate  # NOQA
from chainer_core.functions.array.repeat import repeat  # NOQA
from chainer_core.functions.array.reshape import reshape  # NOQA
from chainer_core.functions.array.resize_images import resize_images  # NOQA
from chainer_core.functions.array.rollaxis import rollaxis  # NOQA
from chainer_core.functions.array.scatter import scatter  # NOQA
from chainer_core.functions.array.scatter_add import scatter_add  # NOQA
from chainer_core.functions.array.select_item import select_item  # NOQA
from chainer_core.functions.array.separate import separate  # NOQA
from chainer_core.functions.array.sort import argsort  # NOQA
from chainer_core.functions.array.sort import sort  # NOQA
from chainer_core.functions.array.space2depth import space2depth  # NOQA
from chainer_core.functions.array.spatial_transformer_grid import (  # NOQA
    spatial_transformer_grid)
from chainer_core.functions.array.spatial_transformer_sampler import (  # NOQA
    spatial_transformer_sampler)
from chainer_core.functions.array.split_axis import split_axis  # NOQA
from chainer_core.functions.array.squeeze import squeeze  # NOQA
from chainer_core.functions.array.stack import stack  # NOQA
from chainer_core.functions.array.swapaxes import swapaxes  # NOQA
from chainer_core.functions.array.take_along_axis import gather  # NOQA
from chainer_core.functions.array.take_along_axis import take_along_axis  # NOQA
from chainer_core.functions.array.tile import tile  # NOQA
from chainer_core.functions.array.top_k import top_k  # NOQA
from chainer_core.functions.array.transpose import transpose  # NOQA
from chainer_core.functions.array.transpose_sequence import (  # NOQA
    transpose_sequence)
from chainer_core.functions.array.vstack import vstack  # NOQA
from chainer_core.functions.array.where import where  # NOQA

# connection
from chainer_core.functions.connection.bilinear import bilinear  # NOQA
from chainer_core.functions.connection.convolution_2d import (  # NOQA
    convolution_2d)
from chainer_core.functions.connection.convolution_nd import (  # NOQA
    convolution_1d, convolution_3d, convolution_nd)
from chainer_core.functions.connection.deconvolution_2d import (  # NOQA
    deconvolution_2d)
from chainer_core.functions.connection.deconvolution_nd import (  # NOQA
    deconvolution_1d, deconvolution_3d, deconvolution_nd)
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
from chainer_core.functions.connection.shift import shift  # NOQA

# evaluation
from chainer_core.functions.evaluation.accuracy import accuracy  # NOQA
from chainer_core.functions.evaluation.binary_accuracy import (  # NOQA
    binary_accuracy)
from chainer_core.functions.evaluation.classification_summary import (  # NOQA
    classification_summary, f1_score, fbeta_score, precision, recall)
from chainer_core.functions.evaluation.r2_score import r2_score  # NOQA

# loss
from chainer_core.functions.loss.absolute_error import absolute_error  # NOQA
from chainer_core.functions.loss.black_out import black_out  # NOQA
from chainer_core.functions.loss.contrastive import contrastive  # NOQA
from chainer_core.functions.loss.crf1d import argmax_crf1d, crf1d  # NOQA
from chainer_core.functions.loss.ctc import (  # NOQA
    connectionist_temporal_classification)
from chainer_core.functions.loss.cross_covariance import (  # NOQA
    cross_covariance)
from chainer_core.functions.loss.decov import decov  # NOQA
from chainer_core.functions.loss.discriminative_loss import (  # NOQA
    discriminative_margin_based_clustering_loss)
from chainer_core.functions.loss.hinge import hinge  # NOQA
from chainer_core.functions.loss.huber_loss import huber_loss  # NOQA
from chainer_core.functions.loss.mean_absolute_error import (  # NOQA
    mean_absolute_error)
from chainer_core.functions.loss.mean_squared_error import (  # NOQA
    mean_squared_error)
from chainer_core.functions.loss.negative_sampling import (  # NOQA
    negative_sampling)
from chainer_core.functions.loss.sigmoid_cross_entropy import (  # NOQA
    sigmoid_cross_entropy)
from chainer_core.functions.loss.softmax_cross_entropy import (  # NOQA
    softmax_cross_entropy)
from chainer_core.functions.loss.squared_error import squared_error  # NOQA
from chainer_core.functions.loss.triplet import triplet  # NOQA
from chainer_core.functions.loss.vae import (  # NOQA
    bernoulli_nll, gaussian_kl_divergence, gaussian_nll)

# math
from chainer_core.functions.math.absolute import absolute  # NOQA
from chainer_core.functions.math.arctanh import arctanh  # NOQA
from chainer_core.functions.math.average import average, mean  # NOQA
from chainer_core.functions.math.batch_l2_norm_squared import (  # NOQA
    batch_l2_norm_squared)
from chainer_core.functions.math.basic_math import (  # NOQA
    add, div, mul, neg, pow, sub)
from chainer_core.functions.math.bias import bias  # NOQA
from chainer_core.functions.math.ceil import ceil  # NOQA
from chainer_core.functions.math.cholesky import cholesky  # NOQA
from chainer_core.functions.math.clip import clip  # NOQA
from chainer_core.functions.math.cumprod import cumprod  # NOQA
from chainer_core.functions.math.cumsum import cumsum  # NOQA
from chainer_core.functions.math.det import batch_det, det  # NOQA
from chainer_core.functions.math.digamma import digamma  # NOQA
from chainer_core.functions.math.einsum import einsum  # NOQA
from chainer_core.functions.math.erf import erf  # NOQA
from chainer_core.functions.math.erfc import erfc  # NOQA
from chainer_core.functions.math.erfcinv import erfcinv  # NOQA
from chainer_core.functions.math.erfcx import erfcx  # NOQA
from chainer_core.functions.math.erfinv import erfinv  # NOQA
from chainer_core.functions.math.exponential import (  # NOQA
    exp, log, log10, log2)
from chainer_core.functions.math.exponential_m1 import expm1  # NOQA
from chainer_core.functions.math.fft import fft, ifft  # NOQA
from chainer_core.functions.math.fix import fix  # NOQA
from chainer_core.functions.math.floor import floor  # NOQA
from chainer_core.functions.math.fmod import fmod  # NOQA
from chainer_core.functions.math.hyperbolic import cosh, sinh  # NOQA
from chainer_core.functions.math.inv import batch_inv, inv  # NOQA
from chainer_core.functions.math.lgamma import lgamma  # NOQA
from chainer_core.functions.math.linear_interpolate import (  # NOQA
    linear_interpolate)
from chainer_core.functions.math.logarithm_1p import log1p  # NOQA
from chainer_core.functions.math.log_ndtr import log_ndtr  # NOQA
from chainer_core.functions.math.logsumexp import logsumexp  # NOQA
from chainer_core.functions.math.matmul import batch_matmul, matmul  # NOQA
from chainer_core.functions.math.maximum import maximum  # NOQA
from chainer_core.functions.math.minimum import minimum  # NOQA
from chainer_core.functions.math.minmax import (  # NOQA
    argmax, argmin, max, min)
from chainer_core.functions.math.ndtr import ndtr  # NOQA
from chainer_core.functions.math.ndtri import ndtri  # NOQA
from chainer_core.functions.math.polygamma import polygamma  # NOQA
from chainer_core.functions.math.prod import prod  # NOQA
from chainer_core.functions.math.scale import scale  # NOQA
from chainer_core.functions.math.sign import sign  # NOQA
from chainer_core.functions.math.sparse_matmul import sparse_matmul  # NOQA
from chainer_core.functions.math.sqrt import rsqrt, sqrt  # NOQA
from chainer_core.functions.math.square import square  # NOQA
from chainer_core.functions.math.squared_difference import (  # NOQA
    squared_difference)
from chainer_core.functions.math.sum import sum, sum_to  # NOQA
from chainer_core.functions.math.tensordot import tensordot  # NOQA
from chainer_core.functions.math.trigonometric import (  # NOQA
    arccos, arcsin, arctan, arctan2, cos, sin, tan)
from chainer_core.functions.math.zeta import zeta  # NOQA
from chainer_core.functions.math.identity import identity  # NOQA

# noise
from chainer_core.functions.noise.dropout import dropout  # NOQA
from chainer_core.functions.noise.gaussian import gaussian  # NOQA
from chainer_core.functions.noise.gumbel_softmax import gumbel_softmax  # NOQA
from chainer_core.functions.noise.simplified_dropconnect import (  # NOQA
    simplified_dropconnect)
from chainer_core.functions.noise.zoneout import zoneout  # NOQA

# normalization
from chainer_core.functions.normalization.batch_normalization import (  # NOQA
    batch_normalization, fixed_batch_normalization)
from chainer_core.functions.normalization.batch_renormalization import (  # NOQA
    batch_renormalization, fixed_batch_renormalization)
from chainer_core.functions.normalization.decorrelated_batch_normalization import (  # NOQA
    decorrelated_batch_normalization, fixed_decorrelated_batch_normalization)
from chainer_core.functions.normalization.group_normalization import (  # NOQA
    group_normalization)
from chainer_core.functions.normalization.l2_normalization import (  # NOQA
    normalize)
from chainer_core.functions.normalization.layer_normalization import (  # NOQA
    layer_normalization)
from chainer_core.functions.normalization.local_response_normalization import (  # NOQA
    local_response_normalization)

# pooling
from chainer_core.functions.pooling.average_pooling_2d import (  # NOQA
    average_pooling_2d)
from chainer_core.functions.pooling.average_pooling_nd import (  # NOQA
    average_pooling_1d, average_pooling_3d, average_pooling_nd)
from chainer_core.functions.pooling.max_pooling_2d import (  # NOQA
    max_pooling_2d)
from chainer_core.functions.pooling.max_pooling_nd import (  # NOQA
    max_pooling_1d, max_pooling_3d, max_pooling_nd)
from chainer_core.functions.pooling.roi_average_align_2d import (  # NOQA
    roi_average_align_2d)
from chainer_core.functions.pooling.roi_average_pooling_2d import (  # NOQA
    roi_average_pooling_2d)
from chainer_core.functions.pooling.roi_max_align_2d import (  # NOQA
    roi_max_align_2d)
from chainer_core.functions.pooling.roi_max_pooling_2d import (  # NOQA
    roi_max_pooling_2d)
from chainer_core.functions.pooling.roi_pooling_2d import (  # NOQA
    roi_pooling_2d)
from chainer_core.functions.pooling.spatial_pyramid_pooling_2d import (  # NOQA
    spatial_pyramid_pooling_2d)
from chainer_core.functions.pooling.unpooling_2d import unpooling_2d  # NOQA
from chainer_core.functions.pooling.unpooling_nd import (  # NOQA
    unpooling_1d, unpooling_3d, unpooling_nd)
from chainer_core.functions.pooling.upsampling_2d import (  # NOQA
    upsampling_2d)

# util
from chainer_core.functions.util.forget import forget  # NOQA
# Chainer's module paths of the recurrent functions.
from chainer_core.functions import rnn  # NOQA

from chainer_core.functions.math.basic_math import (  # NOQA
    install_variable_arithmetics as _install)

_install()
