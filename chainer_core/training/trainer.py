"""Trainer: the training loop with its extensions."""
import collections
import os
import sys
import time
import traceback

from chainer_core import reporter as reporter_module
from chainer_core import serializer as serializer_module
from chainer_core.training import extension as extension_module
from chainer_core.training import triggers as trigger_module


# A monotonic clock: elapsed_time must not jump with the wall clock.
_get_time = time.perf_counter


class _ExtensionEntry:
    def __init__(self, extension, priority, trigger, call_before_training):
        self.extension = extension
        self.trigger = trigger
        self.priority = priority
        self.call_before_training = call_before_training


def _length_reached(stop_trigger, updater):
    if not isinstance(stop_trigger, trigger_module.IntervalTrigger):
        return False
    length, unit = stop_trigger.get_training_length()
    done = updater.iteration if unit == 'iteration' else updater.epoch_detail
    return done > 0 and done >= length


class Trainer:
    """Runs the updater until ``stop_trigger`` fires, calling extensions.

    Args:
        updater: does one iteration per call of ``update()``.
        stop_trigger: when to stop, e.g. ``(20, 'epoch')``; None runs
            forever.
        out (str): folder for logs and snapshots.
        extensions (list): extensions to add.

    Attributes:
        observation (dict): values reported in the current iteration.
        reporter: collects the values; the main model is registered as
            observer ``main`` and its links as ``main/<path>``.
    """

    def __init__(self, updater, stop_trigger=None, out='result',
                 extensions=None):
        self.updater = updater
        self.stop_trigger = trigger_module.get_trigger(stop_trigger)
        self.observation = {}
        self.out = out
        self.reporter = reporter_module.Reporter()
        for name, optimizer in updater.get_all_optimizers().items():
            self.reporter.add_observer(name, optimizer.target)
            self.reporter.add_observers(
                name, optimizer.target.namedlinks(skipself=True))
        self._extensions = collections.OrderedDict()
        self._start_at = None
        self._snapshot_elapsed_time = 0.0
        self._final_elapsed_time = None
        self._done = False
        updater.connect_trainer(self)
        for ext in extensions or ():
            self.extend(ext)

    @property
    def elapsed_time(self):
        """Seconds of training, including before a resume."""
        if self._done:
            return self._final_elapsed_time
        if self._start_at is None:
            raise RuntimeError('training has not started yet')
        return _get_time() - self._start_at + self._snapshot_elapsed_time

    def extend(self, extension, name=None, trigger=None, priority=None, *,
               call_before_training=False, **kwargs):
        """Add an extension (its own trigger/priority/name unless given)."""
        if kwargs:
            raise TypeError('extend: unexpected arguments {}'.format(
                sorted(kwargs)))
        if name is None:
            name = getattr(extension, 'name', None) or getattr(
                extension, 'default_name', None) or getattr(
                extension, '__name__', None)
        if name is None:
            raise TypeError('extend: the extension needs a name')
        if name == 'training':
            raise ValueError('"training" is a reserved extension name')
        if trigger is None:
            trigger = getattr(extension, 'trigger', (1, 'iteration'))
        trigger = trigger_module.get_trigger(trigger)
        if priority is None:
            priority = getattr(extension, 'priority',
                               extension_module.PRIORITY_READER)
        modified = name
        ordinal = 0
        while modified in self._extensions:
            ordinal += 1
            modified = '{}_{}'.format(name, ordinal)
        extension.name = modified
        self._extensions[modified] = _ExtensionEntry(
            extension, priority, trigger, call_before_training)

    def get_extension(self, name):
        """The extension registered as ``name``."""
        if name in self._extensions:
            return self._extensions[name].extension
        raise ValueError('extension {} not found'.format(name))

    @property
    def is_before_training(self):
        """True until the first iteration has been done."""
        return self.updater.iteration == 0

    def run(self, show_loop_exception_msg=True):
        """Run the loop until the stop trigger fires.

        Extensions are initialized (except those whose trigger says it has
        ``finished``; snapshot extensions with ``autoload`` first), those
        extended with ``call_before_training`` are called once, then each
        iteration updates and calls the extensions whose triggers fire, in
        descending order of priority (the order of registration among equal
        priorities). With an interval stop trigger whose length the updater
        has already reached (a resumed finished run), no iteration is run.
        """
        if self._done:
            raise RuntimeError('cannot run the training loop twice')
        try:
            os.makedirs(self.out, exist_ok=True)
        except OSError as e:
            raise RuntimeError('cannot create the output folder {}: {}'
                               .format(self.out, e)) from e
        extensions = sorted(self._extensions.items(),
                            key=lambda kv: kv[1].priority, reverse=True)
        self._start_at = _get_time()
        # Extensions that load the trainer's state (snapshot with autoload)
        # are initialized first, so the others initialize from the loaded
        # state, as they do after loading a snapshot before run().
        loading_first = sorted(
            extensions,
            key=lambda kv: getattr(kv[1].extension, 'autoload', False) is not
            True)
        for _, entry in loading_first:
            initializer = getattr(entry.extension, 'initialize', None)
            finished = getattr(entry.trigger, 'finished', False)
            if initializer and not finished:
                initializer(self)
        update = self.updater.update
        reporter = self.reporter
        stop_trigger = self.stop_trigger
        try:
            self.observation = {}
            with reporter.scope(self.observation):
                for _, entry in extensions:
                    if entry.call_before_training:
                        entry.extension(self)
            if _length_reached(stop_trigger, self.updater):
                # A run resumed from the snapshot of a finished run: an
                # interval stop trigger would wait for the next multiple.
                return
            while not stop_trigger(self):
                self.observation = {}
                with reporter.scope(self.observation):
                    update()
                    for _, entry in extensions:
                        if entry.trigger(self):
                            entry.extension(self)
        except Exception as e:
            tb = sys.exc_info()[2]
            if show_loop_exception_msg:
                # Shown now: a finalizer that hangs would otherwise hide it.
                sys.stderr.write('Exception in the main training loop: {}\n'
                                 .format(e))
                sys.stderr.write('Traceback (most recent call last):\n')
                traceback.print_tb(tb)
                sys.stderr.write('Will finalize trainer extensions and '
                                 'updater before reraising the exception.\n')
            for name, entry in extensions:
                handler = getattr(entry.extension, 'on_error', None)
                if handler:
                    try:
                        handler(self, e, tb)
                    except Exception as he:
                        # Every handler runs; their own errors are shown
                        # and the original exception is the one raised.
                        sys.stderr.write('Exception in the error handler of '
                                         'extension {}: {}\n'.format(name, he))
                        traceback.print_tb(sys.exc_info()[2])
            raise
        finally:
            for _, entry in extensions:
                finalize = getattr(entry.extension, 'finalize', None)
                if finalize:
                    finalize()
            self.updater.finalize()
            self._final_elapsed_time = self.elapsed_time
            self._done = True

    def serialize(self, serializer):
        """Save or load the updater, extensions, triggers and time."""
        self.updater.serialize(serializer['updater'])
        if hasattr(self.stop_trigger, 'serialize'):
            self.stop_trigger.serialize(serializer['stop_trigger'])
        s = serializer['extensions']
        t = serializer['extension_triggers']
        for name, entry in self._extensions.items():
            if hasattr(entry.extension, 'serialize'):
                entry.extension.serialize(s[name])
            if hasattr(entry.trigger, 'serialize'):
                entry.trigger.serialize(t[name])
        if isinstance(serializer, serializer_module.Deserializer):
            self._snapshot_elapsed_time = float(serializer(
                '_snapshot_elapsed_time', 0.0))
        else:
            serializer('_snapshot_elapsed_time',
                       self.elapsed_time if self._start_at is not None
                       else self._snapshot_elapsed_time)
