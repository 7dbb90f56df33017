"""The benchmark harness runs and reports; no time is asserted here."""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_harness_reports_json_lines_and_a_table():
    proc = subprocess.run(
        [sys.executable, os.path.join(ROOT, 'bench', 'run.py'), '--no-torch',
         '--devices', '@numpy', '--threads', '1',
         '--cases', 'op_overhead:1', 'tiny_mlp_step:2'],
        capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(line) for line in proc.stdout.splitlines()
            if line.startswith('{')]
    assert [(r['workload'], r['batch']) for r in rows] == [
        ('op_overhead', 1), ('tiny_mlp_step', 2)]
    for r in rows:
        assert r['framework'] == 'chainer_core'
        assert r['device'] == '@numpy'
        assert r['threads'] == 1
        assert r['us_per_iter'] > 0
    table = proc.stdout.split('\n\n')[-1]
    assert 'tiny_mlp_step:2' in table and 'chainer_core @numpy' in table
