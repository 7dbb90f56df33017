"""scatter_dataset / scatter_index (even and uneven splits), the
multi-node evaluator and the synchronized iterator."""
import numpy

import chainer_core as chainer
import chainer_core.links as L
from chainer_core.training import extensions
import chainer_mn
from _mpitest import check, close, ok, same

comm = chainer_mn.create_communicator('flat')
r, n = comm.rank, comm.size
N = 10


def expected_ranges(n_total, force_equal_length):
    if force_equal_length:
        size = -(-n_total // n)
        return [(n_total * i // n, n_total * i // n + size) for i in range(n)]
    out, b = [], 0
    for i in range(n):
        k = n_total // n + (i < n_total % n)
        out.append((b, b + k))
        b += k
    return out


for n_total in (0, 1, N, 11):
    for equal in (True, False):
        got = chainer_mn.scatter_index(n_total, comm,
                                       force_equal_length=equal)
        same(got, expected_ranges(n_total, equal)[r],
             'scatter_index({}, equal={})'.format(n_total, equal))

array = numpy.arange(N * 2).reshape(N, 2) * 10
datasets = {
    'array': array,
    'list': [('x{}'.format(i), i) for i in range(N)],
    'tuple': chainer.datasets.TupleDataset(array, numpy.arange(N)),
}
for kind, dataset in sorted(datasets.items()):
    for equal in (True, False):
        for shuffle, seed in ((False, None), (True, 3)):
            root = n - 1
            part = chainer_mn.scatter_dataset(
                dataset if r == root else None, comm, root=root,
                shuffle=shuffle, seed=seed, max_buf_len=64,
                force_equal_length=equal)
            check(isinstance(part, chainer.datasets.SubDataset),
                  'scatter_dataset returns a SubDataset')
            b, e = expected_ranges(N, equal)[r]
            check(len(part) == e - b, '{} part length {} != {}'.format(
                kind, len(part), e - b))
            order = numpy.random.RandomState(seed).permutation(N) \
                if shuffle else numpy.arange(N)
            for i in range(len(part)):
                got, want = part[i], dataset[int(order[b + i])]
                if kind == 'array':
                    same(got, want, 'array example')
                elif kind == 'tuple':
                    same(got[0], want[0], 'tuple example')
                    check(int(got[1]) == int(want[1]), 'tuple label')
                else:
                    check(got == want, 'list example')
            everything = comm.allgather_obj(
                [int(order[b + i]) for i in range(len(part))])
            flat = sorted(i for p in everything for i in p)
            if equal:
                check(set(flat) == set(range(N)), 'every example somewhere')
            else:
                check(flat == list(range(N)),
                      'uneven split: each example exactly once')
lengths = comm.allgather_obj(len(chainer_mn.scatter_dataset(
    array if r == 0 else None, comm, force_equal_length=False)))
if n == 3:
    check(lengths == [4, 3, 3], 'uneven lengths {}'.format(lengths))
try:
    chainer_mn.scatter_dataset(object() if r == 0 else None, comm)
except ValueError as e:
    check('rank 0' in str(e), str(e))
else:
    check(False, 'a dataset without len was accepted')

# The multi-node evaluator reports the mean over the whole test set.
numpy.random.seed(0)
model = L.Classifier(L.Linear(2, 3))
rng = numpy.random.RandomState(5)
x = rng.normal(size=(12 * n, 2)).astype(numpy.float32)
t = rng.randint(0, 3, size=12 * n).astype(numpy.int32)
test = chainer.datasets.TupleDataset(x, t)
whole = extensions.Evaluator(
    chainer.iterators.SerialIterator(test, 4, repeat=False, shuffle=False),
    model)()
mine = chainer_mn.scatter_dataset(test if r == 0 else None, comm)
evaluator = chainer_mn.create_multi_node_evaluator(extensions.Evaluator(
    chainer.iterators.SerialIterator(mine, 4, repeat=False, shuffle=False),
    model), comm)
got = evaluator()
check(sorted(got) == sorted(whole), 'evaluator keys {}'.format(sorted(got)))
for key in whole:
    close(got[key], whole[key], 'evaluator ' + key)
    got_all = comm.allgather_obj(float(got[key]))
    check(len(set(got_all)) == 1, 'every process reports the same value')

# The synchronized iterator gives every process the same batches.
data = list(range(20))
numpy.random.seed(r)
it = chainer_mn.iterators.create_synchronized_iterator(
    chainer.iterators.SerialIterator(data, 3), comm)
batches = [it.next() for _ in range(15)]
every = comm.allgather_obj(batches)
check(all(b == every[0] for b in every), 'synchronized batches')
check(sorted(sum(every[0][:6], [])[:18]) != list(range(18)),
      'and still shuffled')
plain = chainer.iterators.SerialIterator(data, 3)
every = comm.allgather_obj([plain.next() for _ in range(3)])
if n > 1:
    check(any(b != every[0] for b in every), 'unsynchronized iterators '
          'differ (the check can fail)')
try:
    chainer_mn.iterators.create_synchronized_iterator(
        chainer.iterators.SerialIterator(list(range(20 + r)), 3), comm)
except ValueError:
    pass
else:
    check(n == 1, 'datasets of different lengths accepted')

# The multi-node iterator: one process iterates, every process gets its
# batches and epoch counters.
master = n - 1
base = chainer.iterators.SerialIterator(data, 6, repeat=False) \
    if r == master else None
mit = chainer_mn.iterators.create_multi_node_iterator(
    base, comm, rank_master=master)
got = []
counters = []
for batch in mit:
    got.append(batch)
    counters.append((mit.epoch, mit.is_new_epoch, mit.epoch_detail))
every = comm.allgather_obj((got, counters))
check(all(e == every[0] for e in every), 'multi-node iterator batches')
check(sorted(sum(every[0][0], [])) == data, 'one sweep over the data')
check(every[0][1][-1][:2] == (1, True), 'the epoch ends everywhere')
mit.reset()
check(mit.epoch == 0, 'reset')
again = comm.allgather_obj(mit.next())
check(all(b == again[0] for b in again), 'after reset')

# AllreducePersistent averages float persistents (not integer ones).
bn = L.BatchNormalization(3)
bn.avg_mean[...] = r
bn.N = r
chainer_mn.extensions.AllreducePersistent(bn, comm)()
close(bn.avg_mean, numpy.full(3, (n - 1) / 2.), 'averaged running mean')
check(bn.N == r, 'integer persistents untouched')
ok(comm)
