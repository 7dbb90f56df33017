"""Q-functions: of states with discrete actions (plain, distributional,
dueling, implicit quantile), of states with NAF's quadratic advantage, and
of state-action pairs."""
from chainer_rl.q_functions.dueling_dqn import DistributionalDuelingDQN
from chainer_rl.q_functions.dueling_dqn import DuelingDQN
from chainer_rl.q_functions.iqn import CosineBasisLinear
from chainer_rl.q_functions.iqn import cosine_basis_functions
from chainer_rl.q_functions.iqn import ImplicitQuantileQFunction
from chainer_rl.q_functions.iqn import \
    StatelessRecurrentImplicitQuantileQFunction
from chainer_rl.q_functions.state_action_q_functions import \
    FCBNLateActionSAQFunction
from chainer_rl.q_functions.state_action_q_functions import FCBNSAQFunction
from chainer_rl.q_functions.state_action_q_functions import \
    FCLateActionSAQFunction
from chainer_rl.q_functions.state_action_q_functions import FCLSTMSAQFunction
from chainer_rl.q_functions.state_action_q_functions import FCSAQFunction
from chainer_rl.q_functions.state_action_q_functions import \
    SingleModelStateActionQFunction
from chainer_rl.q_functions.state_q_functions import \
    DistributionalFCStateQFunctionWithDiscreteAction
from chainer_rl.q_functions.state_q_functions import \
    DistributionalSingleModelStateQFunctionWithDiscreteAction
from chainer_rl.q_functions.state_q_functions import FCLSTMStateQFunction
from chainer_rl.q_functions.state_q_functions import \
    FCQuadraticStateQFunction
from chainer_rl.q_functions.state_q_functions import \
    FCStateQFunctionWithDiscreteAction
from chainer_rl.q_functions.state_q_functions import scale_by_tanh
from chainer_rl.q_functions.state_q_functions import \
    SingleModelStateQFunctionWithDiscreteAction

__all__ = [
    'CosineBasisLinear', 'DistributionalDuelingDQN',
    'DistributionalFCStateQFunctionWithDiscreteAction',
    'DistributionalSingleModelStateQFunctionWithDiscreteAction',
    'DuelingDQN', 'FCBNLateActionSAQFunction', 'FCBNSAQFunction',
    'FCLSTMSAQFunction', 'FCLSTMStateQFunction', 'FCLateActionSAQFunction',
    'FCQuadraticStateQFunction', 'FCSAQFunction',
    'FCStateQFunctionWithDiscreteAction', 'ImplicitQuantileQFunction',
    'SingleModelStateActionQFunction',
    'SingleModelStateQFunctionWithDiscreteAction',
    'StatelessRecurrentImplicitQuantileQFunction', 'cosine_basis_functions',
    'scale_by_tanh',
]
