"""Environments: a tiny test task and vector environments over gymnasium."""
from chainer_rl.envs.abc import ABC  # NOQA
from chainer_rl.envs.multiprocess_vector_env import (  # NOQA
    MultiprocessVectorEnv)
from chainer_rl.envs.vector_env import SerialVectorEnv  # NOQA
from chainer_rl.envs.vector_env import VectorEnv  # NOQA

__all__ = ['ABC', 'MultiprocessVectorEnv', 'SerialVectorEnv', 'VectorEnv']
