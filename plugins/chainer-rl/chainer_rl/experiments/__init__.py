"""Training and evaluation loops, output folders, hooks and plots, with
ChainerRL's names and gymnasium environments.

gymnasium's ``terminated`` is an episode's true end (the agent does not
bootstrap from it); ``truncated`` (time limits), ``info['needs_reset']`` and
``max_episode_len`` end the episode without making its last state terminal.
"""
from chainer_rl.experiments.collect_demos import collect_demonstrations  # NOQA
from chainer_rl.experiments.collect_demos import load_demonstrations  # NOQA
from chainer_rl.experiments.evaluator import AsyncEvaluator  # NOQA
from chainer_rl.experiments.evaluator import Evaluator  # NOQA
from chainer_rl.experiments.evaluator import batch_run_evaluation_episodes  # NOQA
from chainer_rl.experiments.evaluator import eval_performance  # NOQA
from chainer_rl.experiments.evaluator import run_evaluation_episodes  # NOQA
from chainer_rl.experiments.hooks import LinearInterpolationHook  # NOQA
from chainer_rl.experiments.hooks import StepHook  # NOQA
from chainer_rl.experiments.plot import plot_scores  # NOQA
from chainer_rl.experiments.plot import read_scores  # NOQA
from chainer_rl.experiments.prepare_output_dir import is_under_git_control  # NOQA
from chainer_rl.experiments.prepare_output_dir import prepare_output_dir  # NOQA
from chainer_rl.experiments.train_agent import train_agent  # NOQA
from chainer_rl.experiments.train_agent import train_agent_with_evaluation  # NOQA
from chainer_rl.experiments.train_agent_async import train_agent_async  # NOQA
from chainer_rl.experiments.train_agent_batch import train_agent_batch  # NOQA
from chainer_rl.experiments.train_agent_batch import train_agent_batch_with_evaluation  # NOQA
