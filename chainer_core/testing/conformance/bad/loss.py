"""Bad input of loss ops."""
import chainer_core.functions as F

from . import bad, i32, f32, f64, _op

bad('mean_squared_error-shape',
    lambda m: F.mean_squared_error(m((3, 4)), m((4, 3))),
    _op('MeanSquaredError', 'mean_squared_error'), ('x0', 'x1'))
bad('mean_squared_error-dtype',
    lambda m: F.mean_squared_error(m((3, 4)), m((3, 4), f64)),
    _op('MeanSquaredError', 'mean_squared_error'), ('x0', 'x1'))
bad('mean_squared_error-int',
    lambda m: F.mean_squared_error(m((3, 4), i32), m((3, 4), i32)),
    _op('MeanSquaredError', 'mean_squared_error'), ('x0',))
bad('softmax_cross_entropy-t-shape',
    lambda m: F.softmax_cross_entropy(m((4, 3)), m.values([0, 1, 2])),
    _op('SoftmaxCrossEntropy', 'softmax_cross_entropy'), ('t',))
bad('softmax_cross_entropy-t-float',
    lambda m: F.softmax_cross_entropy(
            m((4, 3)), m.values([0, 1, 2, 0], f32)),
    _op('SoftmaxCrossEntropy', 'softmax_cross_entropy'), ('t',))
bad('softmax_cross_entropy-x-ndim',
    lambda m: F.softmax_cross_entropy(m((4,)), m.values([0, 1, 2, 0])),
    _op('SoftmaxCrossEntropy', 'softmax_cross_entropy'), ('x',))
bad('softmax_cross_entropy-x-int',
    lambda m: F.softmax_cross_entropy(
            m((4, 3), i32), m.values([0, 1, 2, 0])),
    _op('SoftmaxCrossEntropy', 'softmax_cross_entropy'), ('x',))
bad('softmax_cross_entropy-label-out-of-range',
    lambda m: F.softmax_cross_entropy(m((4, 3)), m.values([0, 3, 2, 0])),
    _op('SoftmaxCrossEntropy', 'softmax_cross_entropy'), ('t',))
bad('softmax_cross_entropy-reduce',
    lambda m: F.softmax_cross_entropy(
            m((4, 3)), m.values([0, 1, 2, 0]), reduce='sum'),
    _op('SoftmaxCrossEntropy', 'softmax_cross_entropy'), ('reduce',))
bad('softmax_cross_entropy-class_weight-shape',
    lambda m: F.softmax_cross_entropy(
            m((4, 3)), m.values([0, 1, 2, 0]), class_weight=m((4,))),
    _op('SoftmaxCrossEntropy', 'softmax_cross_entropy'),
    ('class_weight',))
bad('softmax_cross_entropy-double-backprop-t-shape',
    lambda m: F.softmax_cross_entropy(
            m((4, 3)), m.values([0, 1]), enable_double_backprop=True),
    _op('SoftmaxCrossEntropy', 'softmax_cross_entropy'), ('t',))

# -- the second loss set

SCE = _op('SoftmaxCrossEntropy', 'softmax_cross_entropy')
bad('softmax_cross_entropy-soft-t-shape',
    lambda m: F.softmax_cross_entropy(m((4, 3)), m((4, 2))), SCE, ('t',))
bad('softmax_cross_entropy-soft_target_loss',
    lambda m: F.softmax_cross_entropy(m((4, 3)), m((4, 3)),
                                      soft_target_loss='l2'),
    SCE, ('soft_target_loss',))

SIGMOID_CE = _op('SigmoidCrossEntropy', 'sigmoid_cross_entropy')
bad('sigmoid_cross_entropy-shape',
    lambda m: F.sigmoid_cross_entropy(m((3, 4)), m.values([[0, 1, 0]])),
    SIGMOID_CE, ('t',))
bad('sigmoid_cross_entropy-t-float',
    lambda m: F.sigmoid_cross_entropy(m((3, 4)), m((3, 4))),
    SIGMOID_CE, ('t',))
bad('sigmoid_cross_entropy-x-int',
    lambda m: F.sigmoid_cross_entropy(m((2, 2), i32),
                                      m.values([[0, 1], [1, 0]])),
    SIGMOID_CE, ('x',))
bad('sigmoid_cross_entropy-reduce',
    lambda m: F.sigmoid_cross_entropy(m((2, 2)), m.values([[0, 1], [1, 0]]),
                                      reduce='sum'),
    SIGMOID_CE, ('reduce',))

for _name, _fn, _node in (
        ('mean_absolute_error', F.mean_absolute_error, 'MeanAbsoluteError'),
        ('squared_error', F.squared_error, 'SquaredError'),
        ('absolute_error', F.absolute_error, 'AbsoluteError')):
    bad(_name + '-shape', lambda m, fn=_fn: fn(m((3, 4)), m((4, 3))),
        _op(_node, _name), ('x0', 'x1'))
    bad(_name + '-dtype', lambda m, fn=_fn: fn(m((3, 4)), m((3, 4), f64)),
        _op(_node, _name), ('x0', 'x1'))
    bad(_name + '-int', lambda m, fn=_fn: fn(m((3, 4), i32), m((3, 4), i32)),
        _op(_node, _name), ('x0',))

HUBER = _op('HuberLoss', 'huber_loss')
bad('huber_loss-shape', lambda m: F.huber_loss(m((3, 4)), m((3, 2)), 1.0),
    HUBER, ('x', 't'))
bad('huber_loss-dtype',
    lambda m: F.huber_loss(m((3, 4)), m((3, 4), f64), 1.0), HUBER,
    ('x', 't'))
bad('huber_loss-1d-sum-along-second-axis',
    lambda m: F.huber_loss(m((3,)), m((3,)), 1.0), HUBER, ('x',))
bad('huber_loss-reduce',
    lambda m: F.huber_loss(m((3, 4)), m((3, 4)), 1.0, reduce='mean'),
    HUBER, ('reduce',))

HINGE = _op('Hinge', 'hinge')
bad('hinge-x-ndim', lambda m: F.hinge(m((4,)), m.values([0, 1, 2, 0])),
    HINGE, ('x',))
bad('hinge-t-shape', lambda m: F.hinge(m((4, 3)), m.values([0, 1, 2])),
    HINGE, ('t',))
bad('hinge-label-out-of-range',
    lambda m: F.hinge(m((2, 3)), m.values([0, 3])), HINGE, ('t',))
bad('hinge-norm', lambda m: F.hinge(m((2, 3)), m.values([0, 1]), norm='L3'),
    HINGE, ('norm',))
bad('hinge-reduce',
    lambda m: F.hinge(m((2, 3)), m.values([0, 1]), reduce='sum'), HINGE,
    ('reduce',))

CONTRASTIVE = _op('Contrastive', 'contrastive')
bad('contrastive-shape',
    lambda m: F.contrastive(m((3, 4)), m((3, 2)), m.values([0, 1, 0])),
    CONTRASTIVE, ('x0', 'x1'))
bad('contrastive-y-float',
    lambda m: F.contrastive(m((3, 4)), m((3, 4)), m((3,))), CONTRASTIVE,
    ('y',))
bad('contrastive-y-length',
    lambda m: F.contrastive(m((3, 4)), m((3, 4)), m.values([0, 1])),
    CONTRASTIVE, ('y', 'x1'))
bad('contrastive-margin',
    lambda m: F.contrastive(m((3, 4)), m((3, 4)), m.values([0, 1, 0]),
                            margin=0),
    CONTRASTIVE, ('margin',))
bad('contrastive-reduce',
    lambda m: F.contrastive(m((3, 4)), m((3, 4)), m.values([0, 1, 0]),
                            reduce='sum'),
    CONTRASTIVE, ('reduce',))

TRIPLET = _op('Triplet', 'triplet')
bad('triplet-shape', lambda m: F.triplet(m((3, 4)), m((3, 4)), m((3, 2))),
    TRIPLET, ('negative', 'anchor'))
bad('triplet-dtype',
    lambda m: F.triplet(m((3, 4)), m((3, 4), f64), m((3, 4))), TRIPLET,
    ('positive', 'anchor'))
bad('triplet-margin',
    lambda m: F.triplet(m((3, 4)), m((3, 4)), m((3, 4)), margin=-1),
    TRIPLET, ('margin',))
bad('triplet-reduce',
    lambda m: F.triplet(m((3, 4)), m((3, 4)), m((3, 4)), reduce='sum'),
    TRIPLET, ('reduce',))

CROSS_COV = _op('CrossCovariance', 'cross_covariance')
bad('cross_covariance-ndim', lambda m: F.cross_covariance(m((5,)), m((5, 2))),
    CROSS_COV, ('y',))
bad('cross_covariance-batch',
    lambda m: F.cross_covariance(m((5, 3)), m((4, 2))), CROSS_COV,
    ('y', 'z'))
bad('cross_covariance-reduce',
    lambda m: F.cross_covariance(m((5, 3)), m((5, 2)), reduce='mean'),
    CROSS_COV, ('reduce',))

DECOV = _op('DeCov', 'decov')
bad('decov-ndim', lambda m: F.decov(m((5, 3, 2))), DECOV, ('h',))
bad('decov-int', lambda m: F.decov(m((5, 3), i32)), DECOV, ('h',))
bad('decov-reduce', lambda m: F.decov(m((5, 3)), reduce='sum'), DECOV,
    ('reduce',))

bad('gaussian_kl_divergence-shape',
    lambda m: F.gaussian_kl_divergence(m((3, 4)), m((4, 3))),
    _op('GaussianKLDivergence', 'gaussian_kl_divergence'),
    ('mean', 'ln_var'))
bad('gaussian_kl_divergence-reduce',
    lambda m: F.gaussian_kl_divergence(m((3, 4)), m((3, 4)), reduce='mean'),
    _op('GaussianKLDivergence', 'gaussian_kl_divergence'), ('reduce',))
bad('bernoulli_nll-dtype',
    lambda m: F.bernoulli_nll(m((3, 4)), m((3, 4), f64)),
    _op('BernoulliNLL', 'bernoulli_nll'), ('x', 'y'))
bad('bernoulli_nll-int',
    lambda m: F.bernoulli_nll(m((3, 4), i32), m((3, 4), i32)),
    _op('BernoulliNLL', 'bernoulli_nll'), ('x',))
bad('gaussian_nll-shape',
    lambda m: F.gaussian_nll(m((3, 4)), m((3, 4)), m((2, 4))),
    _op('GaussianNLL', 'gaussian_nll'), ('ln_var', 'x'))
bad('gaussian_nll-reduce',
    lambda m: F.gaussian_nll(m((3, 4)), m((3, 4)), m((3, 4)), reduce='no!'),
    _op('GaussianNLL', 'gaussian_nll'), ('reduce',))

CTC = _op('ConnectionistTemporalClassification',
          'connectionist_temporal_classification')
_ctc_t = [[1, 2], [2, 1]]
bad('connectionist_temporal_classification-x-array',
    lambda m: F.connectionist_temporal_classification(
        m((3, 2, 3)), m.values(_ctc_t), 0), CTC, ('x',))
bad('connectionist_temporal_classification-x-ndim',
    lambda m: F.connectionist_temporal_classification(
        [m((2, 3, 1))] * 3, m.values(_ctc_t), 0), CTC, ('x',))
bad('connectionist_temporal_classification-x-shapes',
    lambda m: F.connectionist_temporal_classification(
        [m((2, 3)), m((2, 4))], m.values(_ctc_t), 0), CTC, ('x',))
bad('connectionist_temporal_classification-t-shape',
    lambda m: F.connectionist_temporal_classification(
        [m((2, 3))] * 3, m.values([1, 2]), 0), CTC, ('t',))
bad('connectionist_temporal_classification-t-float',
    lambda m: F.connectionist_temporal_classification(
        [m((2, 3))] * 3, m((2, 2)), 0), CTC, ('t',))
bad('connectionist_temporal_classification-label-out-of-range',
    lambda m: F.connectionist_temporal_classification(
        [m((2, 3))] * 3, m.values([[1, 3], [2, 1]]), 0), CTC, ('t',))
bad('connectionist_temporal_classification-blank_symbol',
    lambda m: F.connectionist_temporal_classification(
        [m((2, 3))] * 3, m.values(_ctc_t), 3), CTC, ('blank_symbol',))
bad('connectionist_temporal_classification-blank_symbol-type',
    lambda m: F.connectionist_temporal_classification(
        [m((2, 3))] * 3, m.values(_ctc_t), 0.0), CTC, ('blank_symbol',))
bad('connectionist_temporal_classification-input_length-shape',
    lambda m: F.connectionist_temporal_classification(
        [m((2, 3))] * 3, m.values(_ctc_t), 0,
        input_length=m.values([3, 3, 3])), CTC, ('input_length',))
bad('connectionist_temporal_classification-input_length-range',
    lambda m: F.connectionist_temporal_classification(
        [m((2, 3))] * 3, m.values(_ctc_t), 0,
        input_length=m.values([4, 3])), CTC, ('input_length',))
bad('connectionist_temporal_classification-label_length-range',
    lambda m: F.connectionist_temporal_classification(
        [m((2, 3))] * 3, m.values(_ctc_t), 0,
        label_length=m.values([3, 1])), CTC, ('label_length',))
bad('connectionist_temporal_classification-reduce',
    lambda m: F.connectionist_temporal_classification(
        [m((2, 3))] * 3, m.values(_ctc_t), 0, reduce='sum'), CTC,
    ('reduce',))

CRF = _op('crf1d', 'crf1d')
bad('crf1d-cost-not-square',
    lambda m: F.crf1d(m((3, 2)), [m((2, 3))], [m.values([0, 1])]), CRF,
    ('cost',))
bad('crf1d-xs-width',
    lambda m: F.crf1d(m((3, 3)), [m((2, 3)), m((2, 4))],
                      [m.values([0, 1])] * 2), CRF, ('xs',))
bad('crf1d-xs-dtype',
    lambda m: F.crf1d(m((3, 3)), [m((2, 3), f64)], [m.values([0, 1])]), CRF,
    ('xs',))
bad('crf1d-xs-growing-batch',
    lambda m: F.crf1d(m((3, 3)), [m((1, 3)), m((2, 3))],
                      [m.values([0]), m.values([0, 1])]), CRF, ('xs',))
bad('crf1d-ys-shape',
    lambda m: F.crf1d(m((3, 3)), [m((2, 3))], [m.values([0, 1, 2])]), CRF,
    ('ys',))
bad('crf1d-ys-length',
    lambda m: F.crf1d(m((3, 3)), [m((2, 3))] * 2, [m.values([0, 1])]), CRF,
    ('ys',))
bad('crf1d-label-out-of-range',
    lambda m: F.crf1d(m((3, 3)), [m((2, 3))], [m.values([0, 3])]), CRF,
    ('ys',))
bad('crf1d-reduce',
    lambda m: F.crf1d(m((3, 3)), [m((2, 3))], [m.values([0, 1])],
                      reduce='sum'), CRF, ('reduce',))
bad('argmax_crf1d-cost-int',
    lambda m: F.argmax_crf1d(m((3, 3), i32), [m((2, 3), i32)]),
    _op('argmax_crf1d', 'argmax_crf1d'), ('cost',))
bad('argmax_crf1d-xs-not-a-list',
    lambda m: F.argmax_crf1d(m((3, 3)), m((2, 3))),
    _op('argmax_crf1d', 'argmax_crf1d'), ('xs',))

NEG = _op('NegativeSamplingFunction', 'negative_sampling')


def _sampler(m):
    return lambda shape: m.values([[0, 1, 2]] * shape[0])


bad('negative_sampling-W-dtype',
    lambda m: F.negative_sampling(m((2, 4)), m.values([0, 1]), m((5, 4), f64),
                                  _sampler(m), 2), NEG, ('W',))
bad('negative_sampling-W-width',
    lambda m: F.negative_sampling(m((2, 4)), m.values([0, 1]), m((5, 3)),
                                  _sampler(m), 2), NEG, ('W',))
bad('negative_sampling-t-ndim',
    lambda m: F.negative_sampling(m((2, 4)), m.values([[0, 1]]), m((5, 4)),
                                  _sampler(m), 2), NEG, ('t',))
bad('negative_sampling-t-out-of-range',
    lambda m: F.negative_sampling(m((2, 4)), m.values([0, 5]), m((5, 4)),
                                  _sampler(m), 2), NEG, ('t',))
bad('negative_sampling-sampler',
    lambda m: F.negative_sampling(m((2, 4)), m.values([0, 1]), m((5, 4)),
                                  None, 2), NEG, ('sampler',))
bad('negative_sampling-sampler-shape',
    lambda m: F.negative_sampling(m((2, 4)), m.values([0, 1]), m((5, 4)),
                                  _sampler(m), 3), NEG, ('sampler',))
bad('negative_sampling-reduce',
    lambda m: F.negative_sampling(m((2, 4)), m.values([0, 1]), m((5, 4)),
                                  _sampler(m), 2, reduce='mean'), NEG,
    ('reduce',))

BLACK_OUT = _op('BlackOut', 'black_out')
bad('black_out-samples-shape',
    lambda m: F.black_out(m((2, 4)), m.values([0, 1]), m((5, 4)),
                          m.values([1, 2])), BLACK_OUT, ('samples',))
bad('black_out-t-float',
    lambda m: F.black_out(m((2, 4)), m((2,)), m((5, 4)),
                          m.values([[1], [2]])), BLACK_OUT, ('t',))
bad('black_out-W-width',
    lambda m: F.black_out(m((2, 4)), m.values([0, 1]), m((5, 3)),
                          m.values([[1], [2]])), BLACK_OUT, ('W',))
bad('black_out-word-out-of-range',
    lambda m: F.black_out(m((2, 4)), m.values([0, 1]), m((5, 4)),
                          m.values([[1], [7]])), BLACK_OUT, ('samples',))
bad('black_out-reduce',
    lambda m: F.black_out(m((2, 4)), m.values([0, 1]), m((5, 4)),
                          m.values([[1], [2]]), reduce='sum'), BLACK_OUT,
    ('reduce',))

DISC = _op('discriminative_margin_based_clustering_loss',
           'discriminative_margin_based_clustering_loss')
_disc_labels = [[[0, 1], [2, 1]]]
bad('discriminative_margin_based_clustering_loss-norm',
    lambda m: F.discriminative_margin_based_clustering_loss(
        m((1, 2, 2, 2)), m.values(_disc_labels), 0.5, 1.5, 2, norm=3),
    DISC, ('norm',))
bad('discriminative_margin_based_clustering_loss-max_embedding_dim',
    lambda m: F.discriminative_margin_based_clustering_loss(
        m((1, 2, 2, 2)), m.values(_disc_labels), 0.5, 1.5, 3),
    DISC, ('max_embedding_dim',))
bad('discriminative_margin_based_clustering_loss-embeddings-ndim',
    lambda m: F.discriminative_margin_based_clustering_loss(
        m((2, 2, 2)), m.values(_disc_labels), 0.5, 1.5, 2),
    DISC, ('embeddings',))
bad('discriminative_margin_based_clustering_loss-labels-shape',
    lambda m: F.discriminative_margin_based_clustering_loss(
        m((1, 2, 2, 2)), m.values([[0, 1, 2, 1]]), 0.5, 1.5, 2),
    DISC, ('labels',))
