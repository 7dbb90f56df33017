"""The explorer interface: how an agent turns its greedy choice into the
action it actually takes while training."""
import abc


class Explorer(object, metaclass=abc.ABCMeta):
    """Chooses training actions around the greedy one.

    Agents call ``select_action(t, greedy_action_func, action_value)`` once
    per environment (in a batch, once per row with that row's action
    value). ``greedy_action_func`` is only called when the greedy action is
    needed, so an epsilon-greedy explorer can skip the model's argmax.
    """

    @abc.abstractmethod
    def select_action(self, t, greedy_action_func, action_value=None):
        """Return the action to take.

        Args:
            t (int): the agent's global step count.
            greedy_action_func (callable): returns the greedy action.
            action_value: the agent's ActionValue for this observation,
                for explorers that need the values (Boltzmann).
        """

    def get_statistics(self):
        """``(name, value)`` pairs to log; none by default."""
        return []
