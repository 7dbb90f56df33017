"""The agent protocol: what training loops, evaluators and experiments call.

Two vocabularies are offered on one object:

* ChainerRL 0.8: ``act_and_train(obs, reward)``, ``act(obs)``,
  ``stop_episode_and_train(obs, reward, done=False)``, ``stop_episode()``,
  ``batch_act(batch_obs)``, ``batch_act_and_train(batch_obs)``,
  ``batch_observe(...)`` and ``batch_observe_and_train(...)``.
* PFRL: ``act(obs)``, ``observe(obs, reward, done, reset)``,
  ``batch_act(batch_obs)``, ``batch_observe(...)``, ``training`` and
  ``eval_mode()``.

The names ``act``, ``batch_act`` and ``batch_observe`` exist in both, with
different meanings: in ChainerRL they never learn, in PFRL they learn while
``agent.training`` is True. Here ``training`` is **False by default** (PFRL's
default is True), so ChainerRL code keeps its meaning untouched; PFRL-style
code sets ``agent.training = True`` or uses ``with agent.train_mode():`` and
``eval_mode()`` switches it off inside its block.

Every agent of this package derives from :class:`BatchAgent` and writes four
primitives (``_batch_act_train``, ``_batch_act_eval``,
``_batch_observe_train``, ``_batch_observe_eval``); all the public methods
above are built from those, so the single-env, batch, ChainerRL and PFRL
loops drive the same code.
"""
import abc
import contextlib
import json
import os

import chainer_core


__all__ = ['Agent', 'AttributeSavingMixin', 'AsyncAgent', 'BatchAgent',
           'load_npz_no_strict']

_METADATA_FILE = 'agent.json'
_METADATA_FORMAT = 1


class Agent(object, metaclass=abc.ABCMeta):
    """ChainerRL's single-environment agent interface.

    A training loop calls ``act_and_train`` at every step and
    ``stop_episode_and_train`` at the end of an episode; an evaluation loop
    calls ``act`` and ``stop_episode``.
    """

    @abc.abstractmethod
    def act_and_train(self, obs, reward):
        """Learn from the previous step's reward and choose the next action.

        Args:
            obs: observation after the previous action.
            reward: reward received for the previous action (ignored at an
                episode's first step).

        Returns:
            The action to take.
        """

    @abc.abstractmethod
    def act(self, obs):
        """Choose an action for evaluation, without learning."""

    @abc.abstractmethod
    def stop_episode_and_train(self, obs, reward, done=False):
        """Learn from the last step of an episode and end the episode.

        Args:
            obs: final observation.
            reward: reward for the last action.
            done (bool): True when the episode reached a terminal state;
                False when it was cut short (e.g. by a time limit), so the
                value of ``obs`` is still bootstrapped.
        """

    @abc.abstractmethod
    def stop_episode(self):
        """End the current episode without learning."""

    @abc.abstractmethod
    def save(self, dirname):
        """Save the agent's state into the folder ``dirname``."""

    @abc.abstractmethod
    def load(self, dirname):
        """Restore the agent's state from the folder ``dirname``."""

    @abc.abstractmethod
    def get_statistics(self):
        """Return a list of ``(name, value)`` pairs describing training."""


def _class_name(cls):
    return '{}.{}'.format(cls.__module__, cls.__qualname__)


def load_npz_no_strict(filename, obj):
    """Load ``filename`` into ``obj``, tolerating entries missing in the file.

    Useful when a link gained parameters after the file was written. Raises
    FileNotFoundError naming the path when the file does not exist.
    """
    if not os.path.exists(filename):
        raise FileNotFoundError(
            'load_npz_no_strict: no file at {!r}'.format(filename))
    try:
        chainer_core.serializers.load_npz(filename, obj)
    except KeyError:
        chainer_core.serializers.load_npz(filename, obj, strict=False)


class AttributeSavingMixin(object):
    """Save and load the links and optimizers named in ``saved_attributes``.

    ``save(dirname)`` writes ``<dirname>/<attr>.npz`` for each attribute (an
    attribute that is itself an ``AttributeSavingMixin`` goes into the
    sub-folder ``<dirname>/<attr>``; an attribute that is None is skipped)
    and ``<dirname>/agent.json`` naming the agent's class. ``load`` checks
    that class first, so a folder written by a different agent is refused
    instead of silently half-loading. Nothing is ever unpickled: arrays go
    through ``save_npz``/``load_npz`` and metadata through JSON.
    """

    saved_attributes = ()

    def save(self, dirname):
        """Write every attribute of ``saved_attributes`` under ``dirname``."""
        self._save_attributes(dirname, ())

    def load(self, dirname):
        """Restore every attribute of ``saved_attributes`` from ``dirname``.

        Raises:
            ValueError: the folder was saved by another agent class.
            FileNotFoundError: the folder or one of its files is missing.
        """
        self._load_attributes(dirname, ())

    def _checked_attributes(self, method):
        names = self.saved_attributes
        if isinstance(names, str):
            raise TypeError(
                '{}.{}: saved_attributes must be a list or tuple of attribute'
                ' names, got the string {!r}'.format(
                    type(self).__name__, method, names))
        for name in names:
            if not hasattr(self, name):
                raise AttributeError(
                    '{}.{}: saved_attributes names {!r} but the agent has no'
                    ' such attribute'.format(type(self).__name__, method,
                                             name))
        return list(names)

    def _save_attributes(self, dirname, ancestors):
        if id(self) in ancestors:
            raise ValueError(
                '{}.save: the agent contains itself through saved_attributes'
                .format(type(self).__name__))
        ancestors = ancestors + (id(self),)
        names = self._checked_attributes('save')
        os.makedirs(dirname, exist_ok=True)
        for name in names:
            value = getattr(self, name)
            if value is None:
                continue
            if isinstance(value, AttributeSavingMixin):
                value._save_attributes(os.path.join(dirname, name), ancestors)
            else:
                chainer_core.serializers.save_npz(
                    os.path.join(dirname, name + '.npz'), value)
        metadata = {'format': _METADATA_FORMAT,
                    'class': _class_name(type(self)),
                    'saved_attributes': names}
        with open(os.path.join(dirname, _METADATA_FILE), 'w') as f:
            json.dump(metadata, f, indent=1)

    def _load_attributes(self, dirname, ancestors):
        cls_name = type(self).__name__
        if id(self) in ancestors:
            raise ValueError(
                '{}.load: the agent contains itself through saved_attributes'
                .format(cls_name))
        ancestors = ancestors + (id(self),)
        if not os.path.isdir(dirname):
            raise FileNotFoundError(
                '{}.load: no folder at {!r}'.format(cls_name, dirname))
        meta_path = os.path.join(dirname, _METADATA_FILE)
        # Folders written without metadata (e.g. by ChainerRL itself) are
        # accepted; only a metadata file naming another class is refused.
        if os.path.exists(meta_path):
            with open(meta_path) as f:
                try:
                    metadata = json.load(f)
                except ValueError as e:
                    raise ValueError('{}.load: {!r} is not valid JSON ({})'
                                     .format(cls_name, meta_path, e))
            saved_class = metadata.get('class') if isinstance(
                metadata, dict) else None
            mine = _class_name(type(self))
            if saved_class != mine:
                raise ValueError(
                    '{}.load: {!r} was saved by agent class {} but is being '
                    'loaded into {}'.format(cls_name, dirname, saved_class,
                                            mine))
        for name in self._checked_attributes('load'):
            value = getattr(self, name)
            if value is None:
                continue
            if isinstance(value, AttributeSavingMixin):
                value._load_attributes(os.path.join(dirname, name), ancestors)
                continue
            path = os.path.join(dirname, name + '.npz')
            if not os.path.exists(path):
                raise FileNotFoundError(
                    '{}.load: attribute {!r} has no saved file at {!r}'
                    .format(cls_name, name, path))
            chainer_core.serializers.load_npz(path, value)


class AsyncAgent(Agent):
    """An agent trained by several processes sharing its parameters
    (``chainer_rl.experiments.train_agent_async``).

    ``process_idx`` is set by the trainer in each process (None outside);
    ``shared_attributes`` names the links and optimizers whose arrays are
    placed in shared memory before the processes start.
    """

    process_idx = None

    @property
    @abc.abstractmethod
    def shared_attributes(self):
        """Names of the attributes whose parameters all processes share."""


class BatchAgent(Agent):
    """Base of every agent here: four primitives, all entry points derived.

    Subclasses implement:

    * ``_batch_act_train(batch_obs)``: exploratory actions; remember what
      the update needs (e.g. the observations and actions just taken).
    * ``_batch_act_eval(batch_obs)``: greedy actions.
    * ``_batch_observe_train(batch_obs, batch_reward, batch_done,
      batch_reset)``: store the transitions of the actions just taken and
      update.
    * ``_batch_observe_eval(batch_obs, batch_reward, batch_done,
      batch_reset)``: reset per-env state (recurrent states) of the envs
      whose episode ended.

    ``batch_done[i]`` is True when env ``i`` reached a terminal state;
    ``batch_reset[i]`` is True when env ``i`` is about to be reset without
    having terminated (time limit), so its last observation is still
    bootstrapped.

    ``training`` (default False, see the module docstring) selects what
    ``act``, ``batch_act``, ``observe`` and ``batch_observe`` do.
    """

    training = False

    # ------------------------------------------------------------------
    # primitives

    @abc.abstractmethod
    def _batch_act_train(self, batch_obs):
        """Return exploratory actions for ``batch_obs`` and remember them."""

    @abc.abstractmethod
    def _batch_act_eval(self, batch_obs):
        """Return greedy actions for ``batch_obs``."""

    @abc.abstractmethod
    def _batch_observe_train(self, batch_obs, batch_reward, batch_done,
                             batch_reset):
        """Record the outcome of the last training actions and learn."""

    @abc.abstractmethod
    def _batch_observe_eval(self, batch_obs, batch_reward, batch_done,
                            batch_reset):
        """Record the outcome of the last evaluation actions (no learning)."""

    def get_statistics(self):
        """Return a list of ``(name, value)`` pairs; none by default."""
        return []

    # ------------------------------------------------------------------
    # mode switching (PFRL)

    @contextlib.contextmanager
    def eval_mode(self):
        """Within the block, ``act``/``batch_act``/``observe`` do not learn."""
        previous = self.training
        self.training = False
        try:
            yield
        finally:
            self.training = previous

    @contextlib.contextmanager
    def train_mode(self):
        """Within the block, ``act``/``batch_act``/``observe`` learn (PFRL)."""
        previous = self.training
        self.training = True
        try:
            yield
        finally:
            self.training = previous

    # ------------------------------------------------------------------
    # batch entry points

    @staticmethod
    def _check_batch(method, **batches):
        length = None
        for name, value in batches.items():
            try:
                n = len(value)
            except TypeError:
                raise TypeError(
                    '{}: {} must be a sequence with one entry per env, got {}'
                    .format(method, name, type(value).__name__))
            if length is None:
                length = (name, n)
            elif n != length[1]:
                raise ValueError(
                    '{}: {} has {} entries but {} has {}; one entry per env '
                    'is expected'.format(method, name, n, length[0],
                                         length[1]))

    def batch_act(self, batch_obs):
        """Actions for a batch of observations: greedy unless ``training``
        (ChainerRL: always greedy, as ``training`` defaults to False)."""
        if self.training:
            return self._batch_act_train(batch_obs)
        return self._batch_act_eval(batch_obs)

    def batch_act_and_train(self, batch_obs):
        """ChainerRL: exploratory actions for a batch of observations."""
        return self._batch_act_train(batch_obs)

    def batch_observe(self, batch_obs, batch_reward, batch_done, batch_reset):
        """Outcome of the last batch of actions: learns only if ``training``
        (ChainerRL: never, as ``training`` defaults to False)."""
        self._check_batch(
            '{}.batch_observe'.format(type(self).__name__),
            batch_obs=batch_obs, batch_reward=batch_reward,
            batch_done=batch_done, batch_reset=batch_reset)
        if self.training:
            return self._batch_observe_train(batch_obs, batch_reward,
                                             batch_done, batch_reset)
        return self._batch_observe_eval(batch_obs, batch_reward, batch_done,
                                        batch_reset)

    def batch_observe_and_train(self, batch_obs, batch_reward, batch_done,
                                batch_reset):
        """ChainerRL: learn from the outcome of the last batch of actions."""
        self._check_batch(
            '{}.batch_observe_and_train'.format(type(self).__name__),
            batch_obs=batch_obs, batch_reward=batch_reward,
            batch_done=batch_done, batch_reset=batch_reset)
        return self._batch_observe_train(batch_obs, batch_reward, batch_done,
                                         batch_reset)

    # ------------------------------------------------------------------
    # single-env entry points

    # State of the single-env ChainerRL loop: whether an action has been
    # taken in the current episode, whether it was a training action, and
    # the last observation seen (used by ``stop_episode``).
    _single_pending = None
    _single_last_obs = None

    def act(self, obs):
        """One action: greedy unless ``training`` (ChainerRL: greedy)."""
        # Marked pending only once the action exists: an act that raised
        # (a malformed observation, say) leaves nothing to observe.
        self._single_pending = None
        if self.training:
            action = self._batch_act_train([obs])[0]
            self._single_pending = 'train'
        else:
            action = self._batch_act_eval([obs])[0]
            self._single_pending = 'eval'
        self._single_last_obs = obs
        return action

    def observe(self, obs, reward, done, reset):
        """PFRL: outcome of the last ``act``; learns only if ``training``."""
        self._single_last_obs = obs
        ended = bool(done) or bool(reset)
        self.batch_observe([obs], [reward], [done], [reset])
        if ended:
            self._single_pending = None
            self._single_last_obs = None

    def act_and_train(self, obs, reward):
        """ChainerRL: learn from the previous step (skipped at an episode's
        first step) and return an exploratory action."""
        if self._single_pending == 'train':
            self._batch_observe_train([obs], [reward], [False], [False])
        self._single_pending = None
        action = self._batch_act_train([obs])[0]
        self._single_pending = 'train'
        self._single_last_obs = obs
        return action

    def stop_episode_and_train(self, obs, reward, done=False):
        """ChainerRL: learn from the last step of an episode and end it.

        ``done=False`` means the episode was cut short: the transition is
        stored as a reset rather than a terminal state.
        """
        if self._single_pending == 'train':
            done = bool(done)
            self._batch_observe_train([obs], [reward], [done], [not done])
        elif self._single_pending == 'eval':
            self._batch_observe_eval([obs], [reward], [bool(done)],
                                     [not done])
        self._single_pending = None
        self._single_last_obs = None

    def stop_episode(self):
        """ChainerRL: end the current episode without learning.

        Per-env state (e.g. a recurrent state) is reset through
        ``_batch_observe_eval`` with ``reset=True``, given the last
        observation seen, as no new observation is supplied here.
        """
        if self._single_pending is not None:
            self._batch_observe_eval([self._single_last_obs], [0.0], [False],
                                     [True])
        self._single_pending = None
        self._single_last_obs = None
