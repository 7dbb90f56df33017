"""No exploration."""
from chainer_rl import explorer


class Greedy(explorer.Explorer):
    """Always take the greedy action."""

    def select_action(self, t, greedy_action_func, action_value=None):
        """Return ``greedy_action_func()``."""
        return greedy_action_func()

    def __repr__(self):
        return 'Greedy()'
