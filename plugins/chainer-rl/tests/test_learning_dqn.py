"""Acceptance: Double DQN (examples/train_dqn_cartpole.py) reaches a mean
evaluation return of 475 on CartPole-v1 (10 greedy episodes) within 100k
steps on at least 2 of 3 seeds."""
import pytest

import learning_testing


@pytest.mark.slow
def test_double_dqn_solves_cartpole(tmp_path, record_property):
    results = learning_testing.run_seeds(
        'train_dqn_cartpole', goal=475, steps=100000, outdir=tmp_path,
        record=record_property)
    assert sum(r['solved'] for r in results) >= 2, results
