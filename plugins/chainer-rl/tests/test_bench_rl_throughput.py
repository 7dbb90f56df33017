"""bench/rl_throughput.py (in the repository root) runs its chainer-rl side
and reports; no time is asserted here."""
import json
import os
import subprocess
import sys

import pytest

BENCH = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__))))), 'bench',
    'rl_throughput.py')

pytestmark = pytest.mark.skipif(not os.path.exists(BENCH),
                                reason='not run from a repository checkout')


def _run(*args):
    proc = subprocess.run([sys.executable, BENCH] + list(args),
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-3000:]
    return proc.stdout


def test_reports_json_lines_and_a_table():
    # dqn updates in bursts every 256 steps from step 1000 on: the window
    # (1100, 1400] holds the burst of step 1280, 128 updates.
    out = _run('--no-sb3', '--devices', '@numpy', '--cases', 'dqn',
               '--warmup', '1100', '--steps', '300')
    rows = [json.loads(line) for line in out.splitlines()
            if line.startswith('{')]
    assert len(rows) == 1
    row = rows[0]
    assert (row['framework'], row['device'], row['case'], row['threads']) \
        == ('chainer_rl', '@numpy', 'dqn', 1)
    assert row['steps'] == 300 and row['gradient_steps'] == 128
    assert row['wall_s'] > 0 and row['steps_per_s'] > 0
    table = out.split('\n\n')[-1]
    assert 'chainer-rl @numpy' in table and '\ndqn ' in table


def test_ppo_and_sac_update_in_the_window():
    out = _run('--no-sb3', '--devices', '@numpy', '--cases', 'ppo', 'sac',
               '--warmup', '300', '--steps', '260')
    rows = {r['case']: r for r in (json.loads(line) for line in
                                   out.splitlines() if line.startswith('{'))}
    assert set(rows) == {'ppo', 'sac'}
    assert all('error' not in r for r in rows.values()), rows
    # PPO: one update of 256 transitions (20 epochs of one minibatch) per
    # 256 steps; SAC: one update per step once 256 transitions are stored.
    assert rows['ppo']['gradient_steps'] == 20
    assert rows['sac']['gradient_steps'] == 260


def test_profile_prints_top_costs():
    out = _run('--profile', '@numpy', '--cases', 'dqn', '--warmup', '1100',
               '--steps', '300', '--profile-top', '5')
    assert 'cProfile of dqn on @numpy' in out
    assert 'by cumulative time:' in out
    assert 'act_and_train' in out
