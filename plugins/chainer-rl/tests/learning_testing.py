"""Helpers of the learning acceptance tests: run an example script's
``main`` seed after seed until enough seeds reach the goal.

Each seed stops at its first evaluation whose mean return reaches the goal
(``--successful-score``), and the seeds stop as soon as enough of them
succeeded (or too few are left to get there), so a passing run costs about
two solved seeds.
"""
import importlib.util
import os
import sys
import time

import numpy

from chainer_rl import experiments


EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), 'examples')


def load_example(name):
    """The example script ``examples/<name>.py`` as a module."""
    if EXAMPLES not in sys.path:
        # The scripts import their shared helpers from their folder.
        sys.path.insert(0, EXAMPLES)
    spec = importlib.util.spec_from_file_location(
        'chainer_rl_example_' + name, os.path.join(EXAMPLES, name + '.py'))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_seeds(name, goal, steps, outdir, seeds=(0, 1, 2), needed=2,
              extra_args=(), record=None):
    """Train ``examples/<name>.py`` on each seed in turn (best installed
    device) until ``needed`` seeds reach a mean evaluation return of
    ``goal`` within ``steps`` training steps.

    Returns the list of per-seed results (the scripts' ``main`` results
    with ``seed`` and ``solved`` added) and prints one line per seed.
    """
    module = load_example(name)
    results = []
    for i, seed in enumerate(seeds):
        solved = sum(r['solved'] for r in results)
        if solved >= needed or solved + len(seeds) - i < needed:
            break
        seed_dir = os.path.join(str(outdir), 'seed{}'.format(seed))
        start = time.perf_counter()
        cpu = time.process_time()
        result = module.main([
            '--seed', str(seed), '--steps', str(steps), '--outdir', seed_dir,
            '--successful-score', str(goal)] + list(extra_args))
        result['cpu_time'] = time.process_time() - cpu
        result['wall_time'] = time.perf_counter() - start
        result['seed'] = seed
        result['solved'] = result['solved_at'] is not None
        check_outputs(result, goal, steps)
        results.append(result)
        line = ('{} seed {}: {} (best evaluation mean {:.1f}, last '
                'evaluation at step {}, {:.0f} s wall, {:.0f} s CPU)'.format(
                    name, seed,
                    'reached {} at step {}'.format(goal, result['solved_at'])
                    if result['solved'] else 'did not reach {}'.format(goal),
                    result['best_mean'], result['last_step'],
                    result['wall_time'], result['cpu_time']))
        print(line)
        if record is not None:
            record('seed{}'.format(seed), line)
    return results


def check_outputs(result, goal, steps):
    """What every run leaves behind, and its agreement with the result."""
    scores = experiments.read_scores(result['outdir'])
    assert len(scores['mean']) == result['evaluations'] > 0
    assert os.path.getsize(result['png']) > 0
    assert os.path.isdir(os.path.join(result['outdir'], 'best'))
    assert scores['steps'].max() <= steps
    reached = numpy.nonzero(scores['mean'] >= goal)[0]
    if result['solved_at'] is None:
        assert len(reached) == 0
    else:
        # The run stopped at its first successful evaluation.
        assert list(reached) == [len(scores['mean']) - 1]
        assert result['solved_at'] == result['last_step'] <= steps
