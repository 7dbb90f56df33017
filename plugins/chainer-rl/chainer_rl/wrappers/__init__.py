"""gymnasium wrappers with ChainerRL's names, plus the DeepMind Atari
preprocessing (:mod:`chainer_rl.wrappers.atari_wrappers`)."""
from chainer_rl.wrappers.cast_observation import CastObservation  # NOQA
from chainer_rl.wrappers.cast_observation import CastObservationToFloat32  # NOQA
from chainer_rl.wrappers.continuing_time_limit import ContinuingTimeLimit  # NOQA
from chainer_rl.wrappers.monitor import Monitor  # NOQA
from chainer_rl.wrappers.normalize_action_space import NormalizeActionSpace  # NOQA
from chainer_rl.wrappers.randomize_action import RandomizeAction  # NOQA
from chainer_rl.wrappers.render import Render  # NOQA
from chainer_rl.wrappers.scale_reward import ScaleReward  # NOQA
from chainer_rl.wrappers.vector_frame_stack import VectorEnvWrapper  # NOQA
from chainer_rl.wrappers.vector_frame_stack import VectorFrameStack  # NOQA
from chainer_rl.wrappers import atari_wrappers  # NOQA

__all__ = ['CastObservation', 'CastObservationToFloat32',
           'ContinuingTimeLimit', 'Monitor', 'NormalizeActionSpace',
           'RandomizeAction', 'Render', 'ScaleReward', 'VectorEnvWrapper',
           'VectorFrameStack', 'atari_wrappers']
