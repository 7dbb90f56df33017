"""Writing replay contents to one ``.npz`` file without pickle.

A buffer's contents are sequences (n-step transitions or episodes) of
transition dicts. Transitions shared by several sequences are written once
and shared again after loading.

Every transition is described by a small JSON schema (its keys and the kind
of each value) plus a row of scalars. Arrays are not put in the row: each
distinct array object goes once into an array table (arrays of one dtype
and shape stacked together) and the row holds its index. So the frames a
``LazyFrames`` observation shares with its neighbours are written once, and
come back shared. Transitions with the same schema and scalar types form a
group whose rows are stacked, so a million similar transitions cost a
handful of npz entries. Schemas, groups and sequence layout go into a JSON
document stored as a byte array.

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


class _ArrayTable(object):
    """Distinct arrays, by object identity."""

    def __init__(self):
        self.index_of = {}
        self.arrays = []

    def add(self, arr):
        key = id(arr)
        i = self.index_of.get(key)
        if i is None:
            i = len(self.arrays)
            self.index_of[key] = i
            self.arrays.append(arr)  # keeps ``id`` unique while saving
        return i


def _is_lazy_frames(value):
    return type(value).__name__ == 'LazyFrames' and isinstance(
        getattr(value, 'frames', None), list) and isinstance(
            getattr(value, 'stack_axis', None), int)


def _check_dtype(arr, path):
    if arr.dtype.hasobject or arr.dtype.kind == 'V':
        raise _Unstorable('{} is an array of dtype {}, which cannot be '
                          'stored without pickle'.format(path, arr.dtype))


def _encode(value, path, leaves, table):
    """JSON schema of ``value``; scalars (and array indices into ``table``)
    are appended to ``leaves``."""
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
        leaves.append(np.asarray(table.add(value), dtype=np.int64))
        return 'array'
    if isinstance(value, (tuple, list)):
        kind = 'tuple' if isinstance(value, tuple) else 'list'
        return {kind: [_encode(v, '{}[{}]'.format(path, i), leaves, table)
                       for i, v in enumerate(value)]}
    if isinstance(value, dict):
        keys = list(value.keys())
        for k in keys:
            if not isinstance(k, str):
                raise _Unstorable(
                    '{} is a dict with the non-string key {!r}'.format(
                        path, k))
        return {'dict': [[k, _encode(value[k], '{}[{!r}]'.format(path, k),
                                     leaves, table)] for k in keys]}
    if _is_lazy_frames(value):
        frames = [np.asarray(f) if not isinstance(f, np.ndarray) else f
                  for f in value.frames]
        for i, f in enumerate(frames):
            _check_dtype(f, '{}.frames[{}]'.format(path, i))
            leaves.append(np.asarray(table.add(f), dtype=np.int64))
        return {'lazy': [value.stack_axis, len(frames)]}
    if hasattr(value, '__array__'):
        # Other array-likes (e.g. device arrays) are stored as arrays.
        try:
            arr = np.asarray(value)
        except Exception:
            arr = None
        if arr is not None and not arr.dtype.hasobject:
            leaves.append(np.asarray(table.add(arr), dtype=np.int64))
            return 'array'
    raise _Unstorable('{} holds a {}.{}, which cannot be stored as arrays'
                      .format(path, type(value).__module__,
                              type(value).__qualname__))


def is_storable(value):
    """Whether ``value`` can be written by :func:`save_sequences`."""
    try:
        _encode(value, 'value', [], _ArrayTable())
    except _Unstorable:
        return False
    return True


def _lazy_frames_class():
    from chainer_rl.wrappers.atari_wrappers import LazyFrames
    return LazyFrames


def _decode(schema, row, pos, arrays):
    """Inverse of ``_encode``; returns (value, next row position)."""
    if schema == 'none':
        return None, pos
    if schema in ('bool', 'int', 'float', 'scalar', 'array'):
        leaf = row[pos]
        if schema == 'bool':
            return bool(leaf), pos + 1
        if schema == 'int':
            return int(leaf), pos + 1
        if schema == 'float':
            return float(leaf), pos + 1
        if schema == 'scalar':
            return np.asarray(leaf)[()], pos + 1
        return arrays(int(leaf)), pos + 1
    if isinstance(schema, dict) and len(schema) == 1:
        (kind, body), = schema.items()
        if kind == 'str' and isinstance(body, str):
            return body, pos
        if kind in ('tuple', 'list') and isinstance(body, list):
            out = []
            for s in body:
                v, pos = _decode(s, row, pos, arrays)
                out.append(v)
            return (tuple(out) if kind == 'tuple' else out), pos
        if kind == 'dict' and isinstance(body, list):
            out = {}
            for entry in body:
                if not (isinstance(entry, list) and len(entry) == 2
                        and isinstance(entry[0], str)):
                    raise ValueError('malformed dict schema')
                v, pos = _decode(entry[1], row, pos, arrays)
                out[entry[0]] = v
            return out, pos
        if kind == 'lazy' and isinstance(body, list) and len(body) == 2 \
                and all(isinstance(x, int) for x in body) and body[1] > 0:
            frames = [arrays(int(row[pos + i])) for i in range(body[1])]
            return (_lazy_frames_class()(frames, stack_axis=body[0]),
                    pos + body[1])
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

    table = _ArrayTable()
    groups = {}
    group_list = []
    membership = np.empty(len(transitions), dtype=np.int64)
    position = np.empty(len(transitions), dtype=np.int64)
    for t_idx, tr in enumerate(transitions):
        if not isinstance(tr, dict):
            raise TypeError('{}: every stored transition must be a dict, '
                            'found a {}'.format(owner, type(tr).__name__))
        row = []
        try:
            schema = _encode(tr, 'transition', row, table)
        except _Unstorable as e:
            raise TypeError(
                '{}: {}; only arrays, numbers, bools, strings, None and '
                'tuples, lists or str-keyed dicts of them can be saved'
                .format(owner, e))
        sig = json.dumps([schema, [x.dtype.str for x in row]])
        g = groups.get(sig)
        if g is None:
            g = len(group_list)
            groups[sig] = g
            group_list.append({'schema': schema, 'rows': []})
        membership[t_idx] = g
        position[t_idx] = len(group_list[g]['rows'])
        group_list[g]['rows'].append(row)

    out = {}
    group_meta = []
    for g, group in enumerate(group_list):
        n_leaves = len(group['rows'][0])
        for j in range(n_leaves):
            out['g{}_{}'.format(g, j)] = np.stack(
                [row[j] for row in group['rows']])
        group_meta.append({'schema': group['schema'], 'n_leaves': n_leaves,
                           'size': len(group['rows'])})
    # the array table, stacked by dtype and shape
    kinds = {}
    array_kind = np.empty(len(table.arrays), dtype=np.int64)
    array_pos = np.empty(len(table.arrays), dtype=np.int64)
    members = []
    for i, arr in enumerate(table.arrays):
        k = kinds.setdefault((arr.dtype.str, arr.shape), len(kinds))
        if k == len(members):
            members.append([])
        array_kind[i] = k
        array_pos[i] = len(members[k])
        members[k].append(arr)
    for k, arrs in enumerate(members):
        out['a{}'.format(k)] = np.stack(arrs)
    out['array_kind'] = array_kind
    out['array_position'] = array_pos
    out['transition_group'] = membership
    out['transition_position'] = position
    out['sequence_indices'] = np.asarray(seq_indices, dtype=np.int64)
    out['sequence_lengths'] = np.asarray(seq_lengths, dtype=np.int64)
    for k, v in (arrays or {}).items():
        out['extra_' + k] = np.asarray(v)
    document = {'format': FORMAT, 'version': VERSION, 'meta': meta,
                'groups': group_meta, 'n_array_kinds': len(members),
                'extra': sorted((arrays or {}).keys())}
    out[_META_KEY] = np.frombuffer(json.dumps(document).encode('utf-8'),
                                   dtype=np.uint8)
    with open(filename, 'wb') as f:
        np.savez(f, **out)


def load_sequences(filename, owner):
    """Read a file written by ``save_sequences``.

    Returns:
        (sequences, meta, arrays): lists of transition dicts (shared
        transitions and arrays are the same objects), the stored settings
        and the extra arrays.
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
                    if leaf.shape != (size,):
                        raise ValueError('group {} has inconsistent sizes'
                                         .format(g))
                groups.append((gm['schema'], leaves))
            stacks = [npz['a{}'.format(k)]
                      for k in range(int(document['n_array_kinds']))]
            array_kind = npz['array_kind']
            array_pos = npz['array_position']
            t_group = npz['transition_group']
            t_pos = npz['transition_position']
            seq_indices = npz['sequence_indices']
            seq_lengths = npz['sequence_lengths']
            extra = {k: npz['extra_' + k] for k in document['extra']}
            meta = document['meta']
    except ValueError as e:
        raise ValueError('{}: {!r} is not a valid replay buffer file ({})'
                         .format(owner, filename, e))
    except (KeyError, TypeError, IndexError, AttributeError) as e:
        raise ValueError('{}: {!r} is not a valid replay buffer file '
                         '(missing or malformed entry: {!r})'
                         .format(owner, filename, e))

    views = {}

    def array(i):
        # One view per stored array, so shared arrays stay shared.
        view = views.get(i)
        if view is None:
            if i < 0:
                raise IndexError(i)
            k = int(array_kind[i])
            p = int(array_pos[i])
            if k < 0 or p < 0:
                raise IndexError(i)
            view = stacks[k][p, ...]
            views[i] = view
        return view

    try:
        transitions = []
        for g, p in zip(t_group.tolist(), t_pos.tolist()):
            if g < 0 or p < 0:
                raise IndexError((g, p))
            schema, leaves = groups[g]
            row = [leaf[p] for leaf in leaves]
            value, used = _decode(schema, row, 0, array)
            if used != len(row) or not isinstance(value, dict):
                raise ValueError('schema and arrays disagree')
            transitions.append(value)
        if int(np.sum(seq_lengths)) != len(seq_indices):
            raise ValueError('sequence lengths do not add up')
        sequences = []
        start = 0
        for n in seq_lengths.tolist():
            idx = seq_indices[start:start + n].tolist()
            if any(i < 0 for i in idx):
                raise IndexError(min(idx))
            sequences.append([transitions[i] for i in idx])
            start += n
    except (ValueError, IndexError, TypeError) as e:
        raise ValueError('{}: {!r} is not a valid replay buffer file ({!r})'
                         .format(owner, filename, e))
    return sequences, meta, extra
