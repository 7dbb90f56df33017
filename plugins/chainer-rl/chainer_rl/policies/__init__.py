"""Policies: softmax and mellowmax over discrete actions, Gaussian and
deterministic over continuous ones."""
from chainer_rl.policies.deterministic_policy import \
    ContinuousDeterministicPolicy
from chainer_rl.policies.deterministic_policy import FCBNDeterministicPolicy
from chainer_rl.policies.deterministic_policy import FCDeterministicPolicy
from chainer_rl.policies.gaussian_policy import FCGaussianPolicy
from chainer_rl.policies.gaussian_policy import \
    FCGaussianPolicyWithFixedCovariance
from chainer_rl.policies.gaussian_policy import \
    FCGaussianPolicyWithStateIndependentCovariance
from chainer_rl.policies.gaussian_policy import \
    GaussianHeadWithStateIndependentCovariance
from chainer_rl.policies.gaussian_policy import GaussianPolicy
from chainer_rl.policies.gaussian_policy import \
    LinearGaussianPolicyWithDiagonalCovariance
from chainer_rl.policies.gaussian_policy import \
    LinearGaussianPolicyWithSphericalCovariance
from chainer_rl.policies.mellowmax_policy import MellowmaxPolicy
from chainer_rl.policies.softmax_policy import FCSoftmaxPolicy
from chainer_rl.policies.softmax_policy import SoftmaxPolicy

__all__ = [
    'ContinuousDeterministicPolicy', 'FCBNDeterministicPolicy',
    'FCDeterministicPolicy', 'FCGaussianPolicy',
    'FCGaussianPolicyWithFixedCovariance',
    'FCGaussianPolicyWithStateIndependentCovariance',
    'FCSoftmaxPolicy', 'GaussianHeadWithStateIndependentCovariance',
    'GaussianPolicy', 'LinearGaussianPolicyWithDiagonalCovariance',
    'LinearGaussianPolicyWithSphericalCovariance', 'MellowmaxPolicy',
    'SoftmaxPolicy',
]
