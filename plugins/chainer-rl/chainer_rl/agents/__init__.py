"""Agents with ChainerRL's API (and PFRL's batch API)."""
from chainer_rl.agents.dqn import DQN  # NOQA
from chainer_rl.agents.double_dqn import DoubleDQN  # NOQA
from chainer_rl.agents.categorical_dqn import CategoricalDQN  # NOQA
from chainer_rl.agents.categorical_double_dqn import (  # NOQA
    CategoricalDoubleDQN)
from chainer_rl.agents.iqn import IQN  # NOQA
from chainer_rl.agents.pal import PAL  # NOQA
from chainer_rl.agents.double_pal import DoublePAL  # NOQA
from chainer_rl.agents.ppo import PPO  # NOQA
from chainer_rl.agents.a2c import A2C  # NOQA
from chainer_rl.agents.a2c import A2CModel  # NOQA
from chainer_rl.agents.a2c import A2CSeparateModel  # NOQA
from chainer_rl.agents.ddpg import DDPG  # NOQA
from chainer_rl.agents.ddpg import DDPGModel  # NOQA
from chainer_rl.agents.soft_actor_critic import SoftActorCritic  # NOQA
from chainer_rl.agents.td3 import TD3  # NOQA
from chainer_rl.agents.sarsa import SARSA  # NOQA
from chainer_rl.agents.reinforce import REINFORCE  # NOQA
from chainer_rl.agents.nsq import NSQ  # NOQA
from chainer_rl.agents.trpo import TRPO  # NOQA
from chainer_rl.agents.a3c import A3C  # NOQA
from chainer_rl.agents.a3c import A3CModel  # NOQA
from chainer_rl.agents.a3c import A3CSeparateModel  # NOQA
from chainer_rl.agents.a3c import A3CSharedModel  # NOQA
