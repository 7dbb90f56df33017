"""The kept states of the stateful recurrent links."""
from chainer_core.variable import Variable


class StateKeeper:
    """Keeps the state Variables named by ``_state_names`` (None until
    set or computed); mixed in before the link class."""

    _state_names = ()

    def to_device(self, device):
        super().to_device(device)
        for name in self._state_names:
            state = getattr(self, name)
            if state is not None:
                state.to_device(self.device)
        return self

    def reset_state(self):
        """Forget the state (the next step starts from zeros)."""
        for name in self._state_names:
            setattr(self, name, None)

    def _set_states(self, *states):
        """Check that ``states`` (in the order of ``_state_names``) are
        Variables, and keep them."""
        for name, state in zip(self._state_names, states):
            if not isinstance(state, Variable):
                raise TypeError('{}.set_state: {} must be a Variable, got '
                                '{}'.format(type(self).__name__, name,
                                            type(state).__name__))
        self._keep_states(states)

    def _keep_states(self, states):
        """Keep ``states``, moved to this link's device."""
        for state in states:
            state.to_device(self.device)
        for name, state in zip(self._state_names, states):
            setattr(self, name, state)
