"""Observation dtype casts."""
import gymnasium
import numpy as np

from chainer_rl.wrappers._checks import check_env


def _int_bounds(values, dtype):
    # Bounds beyond the integer range (or infinite) become its limits.
    info = np.iinfo(dtype)
    v = np.asarray(values, dtype=np.float64)
    out = np.empty(v.shape, dtype=dtype)
    small = ~(v > info.min)
    big = v >= info.max
    mid = ~(small | big)
    out[small] = info.min
    out[big] = info.max
    out[mid] = v[mid].astype(dtype)
    return out


class CastObservation(gymnasium.ObservationWrapper):
    """Cast observations to ``dtype`` (the uncast one stays available as
    ``original_observation``, e.g. for recording raw frames).

    A Box observation space is cast too, so space checks keep passing.

    Args:
        env (gymnasium.Env): env to wrap.
        dtype: target NumPy dtype.
    """

    def __init__(self, env, dtype):
        check_env('CastObservation', env)
        super().__init__(env)
        try:
            self.dtype = np.dtype(dtype)
        except TypeError:
            raise TypeError('CastObservation: dtype must be a NumPy dtype, '
                            'got {!r}'.format(dtype))
        self.original_observation = None
        space = env.observation_space
        if isinstance(space, gymnasium.spaces.Box) and \
                self.dtype.kind in 'fiu':
            if self.dtype.kind == 'f':
                low = space.low.astype(self.dtype)
                high = space.high.astype(self.dtype)
            else:
                low = _int_bounds(space.low, self.dtype)
                high = _int_bounds(space.high, self.dtype)
            self.observation_space = gymnasium.spaces.Box(
                low=low, high=high, dtype=self.dtype)

    def observation(self, observation):
        """Return ``observation`` cast to ``dtype``."""
        self.original_observation = observation
        return np.asarray(observation).astype(self.dtype, copy=False)


class CastObservationToFloat32(CastObservation):
    """Cast observations to float32, the dtype links compute in."""

    def __init__(self, env):
        super().__init__(env, np.float32)
