"""The interface every communicator implements (ChainerMN's
``CommunicatorBase``)."""
import abc
import warnings


class CommunicatorBase(abc.ABC):
    """What data-parallel and model-parallel code needs from a communicator.

    Methods named after MPI collectives come in two families: the ones on
    arrays (``bcast``, ``gather``, ``allreduce``, ...; NumPy arrays or
    arrays of any installed device) and the ones on picklable Python
    objects (``bcast_obj``, ``gather_obj``, ...). ``multi_node_mean_grad``
    and ``bcast_data`` work on the parameters of a link.

    Every method except ``send``/``recv`` (and their ``_obj`` variants) is
    collective: all processes of the communicator must call it, in the same
    order.
    """

    @property
    @abc.abstractmethod
    def rank(self):
        """This process's rank in the communicator."""

    @property
    @abc.abstractmethod
    def size(self):
        """The number of processes."""

    @property
    @abc.abstractmethod
    def intra_rank(self):
        """This process's rank among the processes on its machine."""

    @property
    @abc.abstractmethod
    def intra_size(self):
        """The number of processes on this process's machine."""

    @property
    @abc.abstractmethod
    def inter_rank(self):
        """The index of this process's machine."""

    @property
    @abc.abstractmethod
    def inter_size(self):
        """The number of machines."""

    def set_config(self, name, value=True, **kwargs):
        """Set a configuration of the communicator (see subclasses)."""
        raise ValueError('{}: unknown configuration {!r}'.format(
            type(self).__name__, name))

    def get_config(self, name=None):
        """A configuration value (None: a dict of all of them)."""
        if name is None:
            return {}
        raise ValueError('{}: unknown configuration {!r}'.format(
            type(self).__name__, name))

    @abc.abstractmethod
    def split(self, color, key):
        """A communicator of the processes that pass the same ``color``,
        ranked by ``key`` (``MPI_Comm_split``)."""

    @abc.abstractmethod
    def alltoall(self, xs):
        """Send ``xs[i]`` to rank ``i``; returns the tuple of the arrays
        received from every rank."""

    @abc.abstractmethod
    def send(self, data, dest, tag):
        """Send an array (or a tuple or list of arrays) to ``dest``."""

    @abc.abstractmethod
    def recv(self, source, tag):
        """Receive what ``send`` sent from ``source``."""

    @abc.abstractmethod
    def bcast(self, x, root=0):
        """The array ``x`` of ``root``, on every process."""

    @abc.abstractmethod
    def gather(self, x, root=0):
        """The arrays of all processes, as a tuple on ``root`` (None
        elsewhere)."""

    @abc.abstractmethod
    def allgather(self, x):
        """The arrays of all processes, as a tuple on every process."""

    @abc.abstractmethod
    def allreduce(self, x):
        """The element-wise sum of the arrays of all processes."""

    @abc.abstractmethod
    def scatter(self, xs, root=0):
        """``xs[i]`` of ``root`` on rank ``i``."""

    def finalize(self):
        """Release the communicator's resources; do not use it afterwards."""

    @abc.abstractmethod
    def send_obj(self, obj, dest, tag=0):
        """Send a picklable object to ``dest``."""

    @abc.abstractmethod
    def recv_obj(self, source, status=None, tag=None):
        """Receive an object sent by ``send_obj`` from ``source``."""

    @abc.abstractmethod
    def bcast_obj(self, obj, max_buf_len=None, root=0):
        """The object of ``root``, on every process."""

    @abc.abstractmethod
    def gather_obj(self, obj, root=0):
        """The objects of all processes, as a list on ``root`` (None
        elsewhere)."""

    def allgather_obj(self, obj):
        """The objects of every process as a list, on every process."""
        return self.bcast_obj(self.gather_obj(obj))

    @abc.abstractmethod
    def allreduce_obj(self, obj):
        """The sum (``+``) of the objects of all processes, on every
        process."""

    @abc.abstractmethod
    def bcast_data(self, model):
        """Copy the parameters of ``model`` on rank 0 to every process."""

    def broadcast_data(self, model):
        """Old name of :meth:`bcast_data`."""
        self.bcast_data(model)

    @abc.abstractmethod
    def multi_node_mean_grad(self, model, zero_fill=False):
        """Replace the gradients of ``model`` by their mean over all
        processes.

        Args:
            model (~chainer_core.Link): the link.
            zero_fill (bool): treat the missing gradient (None) of an
                initialised parameter as zeros, so that every process
                contributes the same parameters; otherwise such parameters
                are skipped (and must then be skipped on every process).
                Uninitialised parameters are always skipped.
        """

    def allreduce_grad(self, model, zero_fill=False):
        """Deprecated name of :meth:`multi_node_mean_grad`."""
        warnings.warn('allreduce_grad() is deprecated; use '
                      'multi_node_mean_grad()', DeprecationWarning,
                      stacklevel=2)
        self.multi_node_mean_grad(model, zero_fill)
