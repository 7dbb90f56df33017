"""Writing replay contents to one ``.npz`` file without pickle.

A buffer's contents are sequences (n-step transitions or episodes) of
transition dicts. Transitions shared by several sequences are written once
and shared again after loading. Every transition is described by a small
JSON schema (its keys and the kind of each value) plus a list of arrays;
transitions with the same schema and array shapes form a group whose arrays
are stacked, so a million same-shaped transitions cost a handful of npz
entries. The schemas, groups and sequence layout go into a JSON document
stored as a byte array.

Loading reads the file with ``allow_pickle=False`` and rebuilds values only
from that JSON description and plain arrays, so a file from a stranger
cannot run code; anything malformed raises ``ValueError``.
"""
import json
import zipfile

import numpy as np


FORMAT = 'chainer_rl.replay_buffer'
VERSION = 1

_META_KEY = '__meta__'


class _Unstorable(TypeError):
    pass


def _encode(value, path, leaves):
    """JSON schema of ``value``; arrays are appended to ``leaves``."""
    if value is None:
        return 'none'
    if isinstance(value, bool):
        leaves.append(np.asarray(value))
        return 'bool'
    if isinstance(value, int):
        leaves.append(np.asarray(value, dtype=np.int64))
        return 'int'
    if isinstance(value, float):
        leaves.append(np.asarray(value, dtype=np.float64))
        return 'float'
    if isinstance(value, str):
        return {'str': value}
    if isinstance(value, np.generic):
        arr = np.asarray(value)
        _check_dtype(arr, path)
        leaves.append(arr)
        return 'scalar'
    if isinstance(value, np.ndarray):
        _check_dtype(value, path)
        leaves.append(value)
        return 'array'
    if isinstance(value, (tuple, list)):
        kind = 'tuple' if isinstance(value, tuple) else 'list'
        return {kind: [_encode(v, '{}[{}]'.format(path, i), leaves)
                       for i, v in enumerate(value)]}
    if isinstance(value, dict):
        keys = list(value.keys())
        for k in keys:
            if not isinstance(k, str):
                raise _Unstorable(
                    '{} is a dict with the non-string key {!r}'.format(
                        path, k))
        return {'dict': [[k, _encode(value[k], '{}[{!r}]'.format(path, k),
                                     leaves)] for k in keys]}
    if hasattr(value, '__array__'):
        # Array-like observations such as LazyFrames are stored as arrays.
        try:
            arr = np.asarray(value)
        except Exception:
            arr = None
        if arr is not None and arr.dtype != object:
            leaves.append(arr)
            return 'array'
    raise _Unstorable('{} holds a {}.{}, which cannot be stored as arrays'
                      .format(path, type(value).__module__,
                              type(value).__qualname__))


def _check_dtype(arr, path):
    if arr.dtype.hasobject or arr.dtype.kind == 'V':
        raise _Unstorable('{} is an array of dtype {}, which cannot be '
                          'stored without pickle'.format(path, arr.dtype))


def is_storable(value):
    """Whether ``value`` can be written by :func:`save_sequences`."""
    try:
        _encode(value, 'value', [])
    except _Unstorable:
        return False
    return True


def _decode(schema, leaves, pos):
    """Inverse of ``_encode``; returns (value, next leaf position)."""
    if schema == 'none':
        return None, pos
    if schema in ('bool', 'int', 'float', 'scalar', 'array'):
        leaf = leaves[pos]
        if schema == 'bool':
            return bool(leaf), pos + 1
        if schema == 'int':
            return int(leaf), pos + 1
        if schema == 'float':
            return float(leaf), pos + 1
        if schema == 'scalar':
            return np.asarray(leaf)[()], pos + 1
        return leaf, pos + 1
    if isinstance(schema, dict) and len(schema) == 1:
        (kind, body), = schema.items()
        if kind == 'str' and isinstance(body, str):
            return body, pos
        if kind in ('tuple', 'list') and isinstance(body, list):
            out = []
            for s in body:
                v, pos = _decode(s, leaves, pos)
                out.append(v)
            return (tuple(out) if kind == 'tuple' else out), pos
        if kind == 'dict' and isinstance(body, list):
            out = {}
            for entry in body:
                if not (isinstance(entry, list) and len(entry) == 2
                        and isinstance(entry[0], str)):
                    raise ValueError('malformed dict schema')
                v, pos = _decode(entry[1], leaves, pos)
                out[entry[0]] = v
            return out, pos
    raise ValueError('unknown schema {!r}'.format(schema)[:200])


def save_sequences(filename, owner, sequences, meta, arrays=None):
    """Write ``sequences`` (lists of transition dicts) to ``filename``.

    Args:
        filename (str): written as given (no extension is added).
        owner (str): ``Class.save`` for error messages.
        sequences (iterable of lists of dicts): the buffer contents.
        meta (dict): JSON-able settings of the buffer, stored verbatim.
        arrays (dict of str to ndarray or None): extra arrays (priorities).
    """
    index_of = {}
    transitions = []
    seq_indices = []
    seq_lengths = []
    for seq in sequences:
        seq_lengths.append(len(seq))
        for tr in seq:
            key = id(tr)
            if key not in index_of:
                index_of[key] = len(transitions)
                transitions.append(tr)
            seq_indices.append(index_of[key])

    groups = {}
    group_list = []
    membership = np.empty(len(transitions), dtype=np.int64)
    position = np.empty(len(transitions), dtype=np.int64)
    for t_idx, tr in enumerate(transitions):
        if not isinstance(tr, dict):
            raise TypeError('{}: every stored transition must be a dict, '
                            'found a {}'.format(owner, type(tr).__name__))
        leaves = []
        try:
            schema = _encode(tr, 'transition', leaves)
        except _Unstorable as e:
            raise TypeError(
                '{}: {}; only arrays, numbers, bools, strings, None and '
                'tuples, lists or str-keyed dicts of them can be saved'
                .format(owner, e))
        leaves = [np.asarray(x) for x in leaves]
        sig = json.dumps([schema, [[str(x.dtype), list(x.shape)]
                                   for x in leaves]])
        g = groups.get(sig)
        if g is None:
            g = len(group_list)
            groups[sig] = g
            group_list.append({'schema': schema, 'leaves': [],
                               'members': []})
        group_list[g]['leaves'].append(leaves)
        membership[t_idx] = g
        position[t_idx] = len(group_list[g]['members'])
        group_list[g]['members'].append(t_idx)

    out = {}
    group_meta = []
    for g, group in enumerate(group_list):
        n_leaves = len(group['leaves'][0])
        for j in range(n_leaves):
            out['g{}_{}'.format(g, j)] = np.stack(
                [ls[j] for ls in group['leaves']])
        group_meta.append({'schema': group['schema'], 'n_leaves': n_leaves,
                           'size': len(group['members'])})
    out['transition_group'] = membership
    out['transition_position'] = position
    out['sequence_indices'] = np.asarray(seq_indices, dtype=np.int64)
    out['sequence_lengths'] = np.asarray(seq_lengths, dtype=np.int64)
    for k, v in (arrays or {}).items():
        out['extra_' + k] = np.asarray(v)
    document = {'format': FORMAT, 'version': VERSION, 'meta': meta,
                'groups': group_meta, 'extra': sorted((arrays or {}).keys())}
    out[_META_KEY] = np.frombuffer(json.dumps(document).encode('utf-8'),
                                   dtype=np.uint8)
    with open(filename, 'wb') as f:
        np.savez(f, **out)


def load_sequences(filename, owner):
    """Read a file written by ``save_sequences``.

    Returns:
        (sequences, meta, arrays): lists of transition dicts (shared
        transitions are the same objects), the stored settings and the
        extra arrays.
    """
    try:
        npz = np.load(filename, allow_pickle=False)
    except (OSError, ValueError, zipfile.BadZipFile) as e:
        raise ValueError('{}: {!r} is not a replay buffer file ({})'
                         .format(owner, filename, e))
    try:
        with npz:
            if not hasattr(npz, 'files') or _META_KEY not in npz.files:
                raise ValueError('no {} entry'.format(_META_KEY))
            document = json.loads(
                npz[_META_KEY].astype(np.uint8).tobytes().decode('utf-8'))
            if not isinstance(document, dict) or \
                    document.get('format') != FORMAT:
                raise ValueError('not written by a chainer_rl replay buffer')
            if document.get('version') != VERSION:
                raise ValueError('unsupported version {!r}'.format(
                    document.get('version')))
            groups = []
            for g, gm in enumerate(document['groups']):
                leaves = [npz['g{}_{}'.format(g, j)]
                          for j in range(int(gm['n_leaves']))]
                size = int(gm['size'])
                for leaf in leaves:
                    if leaf.shape[:1] != (size,):
                        raise ValueError('group {} has inconsistent sizes'
                                         .format(g))
                groups.append((gm['schema'], leaves))
            t_group = npz['transition_group']
            t_pos = npz['transition_position']
            seq_indices = npz['sequence_indices']
            seq_lengths = npz['sequence_lengths']
            arrays = {k: npz['extra_' + k] for k in document['extra']}
            meta = document['meta']
    except ValueError as e:
        raise ValueError('{}: {!r} is not a valid replay buffer file ({})'
                         .format(owner, filename, e))
    except (KeyError, TypeError, IndexError, AttributeError) as e:
        raise ValueError('{}: {!r} is not a valid replay buffer file '
                         '(missing or malformed entry: {!r})'
                         .format(owner, filename, e))

    try:
        transitions = []
        for g, p in zip(t_group.tolist(), t_pos.tolist()):
            schema, leaves = groups[g]
            if p < 0:
                raise IndexError(p)
            row = [leaf[p] if leaf.ndim > 1 else np.array(leaf[p])
                   for leaf in leaves]
            value, used = _decode(schema, row, 0)
            if used != len(row) or not isinstance(value, dict):
                raise ValueError('schema and arrays disagree')
            transitions.append(value)
        sequences = []
        start = 0
        if int(np.sum(seq_lengths)) != len(seq_indices):
            raise ValueError('sequence lengths do not add up')
        for n in seq_lengths.tolist():
            idx = seq_indices[start:start + n].tolist()
            if any(i < 0 for i in idx):
                raise IndexError(min(idx))
            sequences.append([transitions[i] for i in idx])
            start += n
    except (ValueError, IndexError, TypeError) as e:
        raise ValueError('{}: {!r} is not a valid replay buffer file ({!r})'
                         .format(owner, filename, e))
    return sequences, meta, arrays
