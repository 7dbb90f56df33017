"""Chainer v7 programs (``scripts/``) run unmodified through
``python -m chainer_core.compat`` on every installed device.

Each script prints, as its last line, a JSON object of the metrics it
reached; the checks below hold for a run that trained. A known failure is
listed in ``KNOWN_FAILURES`` with its error, as a strict xfail, so that the
entry has to go when the bug is fixed.
"""
import importlib.util
import json
import math
import os
import subprocess
import sys

import pytest

SCRIPTS = os.path.join(os.path.dirname(__file__), 'scripts')


def _installed_devices():
    """Every available device, with ``-1`` (Chainer's spelling of the CPU)
    for ``@numpy``."""
    info = json.loads(subprocess.run(
        [sys.executable, '-m', 'chainer_core', 'info', '--json'],
        capture_output=True, text=True, check=True, timeout=300).stdout)
    devices = [d for b in info['backends'] if b['available']
               for d in b['devices']]
    return ['-1' if d == '@numpy' else d for d in devices]


def _decreased(first, last):
    def check(r):
        assert r[last] < r[first], r
    return check


def _check_mlp(r):
    assert r['last_loss'] < r['first_loss'], r
    assert r['val_accuracy'] > 0.8, r
    assert r['snapshot'] and r['best_model'] and r['graph'], r
    assert r['statistics'], r


def _check_gan(r):
    assert all(math.isfinite(r[k]) for k in ('gen_loss', 'dis_loss')), r
    assert r['fake_shape'] == [8, 1, 16, 16] and r['fake_in_range'], r


def _check_rnnlm(r):
    assert r['last_perplexity'] < r['first_perplexity'], r
    assert r['val_perplexity'] < r['n_vocab'] / 2, r


def _check_cnn(r):
    assert r['last_loss'] < r['first_loss'], r
    assert r['val_accuracy'] > 0.8, r
    assert r['lr'] == pytest.approx(0.05 / 8), r


def _check_serialization(r):
    same = {'same_output': True, 'same_t': True, 'same_avg_mean': True}
    assert r['npz'] == same, r
    if importlib.util.find_spec('h5py') is not None:
        assert r['hdf5'] == same, r
    assert r['resumed_from'] == 20 and r['resumed_output'], r
    assert r['final_iteration'] == 30, r
    assert r['log_iterations'] == [10, 20, 30], r


def _check_vae(r):
    assert r['last_loss'] < r['first_loss'], r
    assert r['reconstruction_error'] < 0.2, r


def _check_word2vec(r):
    assert r['last_loss'] < r['first_loss'], r
    assert r['same_topic'] > r['other_topic'] + 0.3, r


def _check_seq2seq(r):
    assert r['last_loss'] < r['first_loss'] / 5, r
    assert r['exact_match'] > 0.5, r


def _check_text(r):
    assert r['last_loss'] < r['first_loss'], r
    assert r['val_accuracy'] > 0.65, r


def _check_crf(r):
    assert r['last_loss'] < r['first_loss'], r
    assert r['tag_accuracy'] > 0.9, r


def _check_memnn(r):
    assert r['last_loss'] < r['first_loss'], r
    assert r['val_accuracy'] > 0.8, r


def _check_recursive(r):
    assert r['last_loss'] < r['first_loss'], r
    assert r['accuracy'] > max(0.8, r['first_accuracy']), r


# case -> (script, extra arguments, check of its metrics, slow)
CASES = {
    'mlp': ('train_mlp.py', [], _check_mlp, False),
    'custom_loop': ('custom_loop.py', [],
                    _decreased('first_loss', 'last_loss'), False),
    'dcgan': ('train_dcgan.py', [], _check_gan, False),
    'rnnlm': ('train_rnnlm.py', [], _check_rnnlm, False),
    'cifar_cnn': ('train_cifar_cnn.py', [], _check_cnn, False),
    'serialize': ('serialize_resume.py', [], _check_serialization, False),
    'vae': ('train_vae.py', [], _check_vae, False),
    'word2vec_skipgram_ns': ('train_word2vec.py',
                             ['--model', 'skipgram', '--out-type', 'ns'],
                             _check_word2vec, False),
    'word2vec_cbow_hsm': ('train_word2vec.py',
                          ['--model', 'cbow', '--out-type', 'hsm'],
                          _check_word2vec, False),
    'seq2seq': ('train_seq2seq.py', [], _check_seq2seq, True),
    'text_cnn': ('train_text_classifier.py', ['--model', 'cnn'],
                 _check_text, False),
    'text_bow': ('train_text_classifier.py', ['--model', 'bow'],
                 _check_text, False),
    'crf_tagger': ('train_crf_tagger.py', [], _check_crf, False),
    'memnn': ('train_memnn.py', [], _check_memnn, False),
    'recursive': ('train_recursive.py', [], _check_recursive, False),
}

# (case, device) -> the error it fails with today; device None: on every
# device.
KNOWN_FAILURES = {}


def _params():
    for device in _installed_devices():
        for case, (script, args, check, slow) in sorted(CASES.items()):
            marks = [pytest.mark.slow] if slow else []
            reason = KNOWN_FAILURES.get(
                (case, device), KNOWN_FAILURES.get((case, None)))
            if reason is not None:
                marks.append(pytest.mark.xfail(strict=True, reason=reason))
            yield pytest.param(script, device, args, check, marks=marks,
                               id='{}-{}'.format(case, device))


@pytest.mark.parametrize('script,device,args,check', list(_params()))
def test_script(script, device, args, check, tmp_path):
    result = subprocess.run(
        [sys.executable, '-m', 'chainer_core.compat',
         os.path.join(SCRIPTS, script), '--device', device] + args,
        cwd=str(tmp_path), capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    check(json.loads(result.stdout.strip().splitlines()[-1]))
