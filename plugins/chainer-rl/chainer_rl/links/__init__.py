"""Links for reinforcement learning models: MLPs, DQN torsos, NoisyNet
layers, running input normalization, containers that route keyword
arguments or branch, and stateless recurrent containers."""
from chainer_rl.links.branched import Branched
from chainer_rl.links.dqn_head import NatureDQNHead
from chainer_rl.links.dqn_head import NIPSDQNHead
from chainer_rl.links.empirical_normalization import EmpiricalNormalization
from chainer_rl.links.mlp import MLP
from chainer_rl.links.mlp_bn import LinearBN
from chainer_rl.links.mlp_bn import MLPBN
from chainer_rl.links.noisy_chain import to_factorized_noisy
from chainer_rl.links.noisy_linear import FactorizedNoisyLinear
from chainer_rl.links.sequence import Sequence
from chainer_rl.links.stateless_recurrent import call_recurrent_link
from chainer_rl.links.stateless_recurrent import concatenate_recurrent_states
from chainer_rl.links.stateless_recurrent import \
    concatenate_recurrent_states_of_links
from chainer_rl.links.stateless_recurrent import concatenate_sequences
from chainer_rl.links.stateless_recurrent import get_recurrent_state_at
from chainer_rl.links.stateless_recurrent import \
    get_recurrent_states_of_links_at
from chainer_rl.links.stateless_recurrent import is_recurrent_link
from chainer_rl.links.stateless_recurrent import mask_recurrent_state_at
from chainer_rl.links.stateless_recurrent import \
    mask_recurrent_states_of_links_at
from chainer_rl.links.stateless_recurrent import split_batched_sequences
from chainer_rl.links.stateless_recurrent import split_one_step_batch_input
from chainer_rl.links.stateless_recurrent import StatelessRecurrent
from chainer_rl.links.stateless_recurrent import StatelessRecurrentBranched
from chainer_rl.links.stateless_recurrent import StatelessRecurrentChainList
from chainer_rl.links.stateless_recurrent import StatelessRecurrentSequential

__all__ = [
    'Branched', 'EmpiricalNormalization', 'FactorizedNoisyLinear',
    'LinearBN', 'MLP', 'MLPBN', 'NIPSDQNHead', 'NatureDQNHead', 'Sequence',
    'StatelessRecurrent', 'StatelessRecurrentBranched',
    'StatelessRecurrentChainList', 'StatelessRecurrentSequential',
    'call_recurrent_link', 'concatenate_recurrent_states',
    'concatenate_recurrent_states_of_links', 'concatenate_sequences',
    'get_recurrent_state_at', 'get_recurrent_states_of_links_at',
    'is_recurrent_link', 'mask_recurrent_state_at',
    'mask_recurrent_states_of_links_at', 'split_batched_sequences',
    'split_one_step_batch_input', 'to_factorized_noisy',
]
