"""Link hooks: code run around the ``forward`` of links."""
from chainer_core import _link_hooks


class LinkHook:
    """Base of hooks called before and after the ``forward`` of links.

    A hook registered on a link with :meth:`Link.add_hook` runs around
    that link's calls; used as a context manager (``with hook:``) it runs
    around the calls of every link in the current thread.

    Subclasses override :meth:`forward_preprocess` and
    :meth:`forward_postprocess`, and optionally :meth:`added` and
    :meth:`deleted`.

    Attributes:
        name (str): the key the hook is registered under (``'LinkHook'``
            unless a subclass or instance says otherwise).
    """

    name = 'LinkHook'

    def __enter__(self):
        hooks = _link_hooks.get_link_hooks()
        if self.name in hooks:
            raise KeyError('link hook {} already exists'.format(self.name))
        hooks[self.name] = self
        self.added(None)
        return self

    def __exit__(self, *exc):
        hooks = _link_hooks.get_link_hooks()
        hooks[self.name].deleted(None)
        del hooks[self.name]

    def added(self, link):
        """Called when the hook is registered.

        Args:
            link: the link it was added to, or None for a global hook.
        """

    def deleted(self, link):
        """Called when the hook is unregistered.

        Args:
            link: the link it was removed from, or None for a global hook.
        """

    def forward_preprocess(self, args):
        """Called before ``forward``.

        Args:
            args: a record with ``link``, ``forward_name``, ``args`` and
                ``kwargs``.
        """

    def forward_postprocess(self, args):
        """Called after ``forward``.

        Args:
            args: a record with ``link``, ``forward_name``, ``args``,
                ``kwargs`` and ``out`` (what ``forward`` returned).
        """
