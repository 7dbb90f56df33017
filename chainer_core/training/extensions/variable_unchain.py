"""unchain_variables: free the graphs behind the reported variables."""
from chainer_core.training import extension
from chainer_core.variable import Variable


@extension.make_extension(priority=0)
def unchain_variables(trainer):
    """Unchain the graph behind every Variable of the observation (after
    the readers of the iteration: priority 0), so that graphs kept with
    ``keep_graph_on_report`` are freed."""
    for value in trainer.observation.values():
        if isinstance(value, Variable):
            value.unchain_backward()
