"""Acceptance: Soft Actor-Critic (examples/train_sac_pendulum.py) reaches a
mean evaluation return of -200 on Pendulum-v1 (10 episodes) within 20k
steps on at least 2 of 3 seeds."""
import pytest

import learning_testing


@pytest.mark.slow
def test_sac_solves_pendulum(tmp_path, record_property):
    results = learning_testing.run_seeds(
        'train_sac_pendulum', goal=-200, steps=20000, outdir=tmp_path,
        record=record_property)
    assert sum(r['solved'] for r in results) >= 2, results
