"""Bad input of the stacked recurrent networks."""
import chainer_core.functions as F

from . import bad, f64, i32

N, I, B = 3, 4, 2


def _args(m, n_weights, n_layers=1, direction=1, batches=(2, 1), **change):
    """Valid arguments of an n_step function, with ``change`` applied."""
    n_sets = int(n_layers) * direction
    args = dict(
        n_layers=n_layers, dropout_ratio=0.0,
        hx=m((n_sets, B, N)), cx=m((n_sets, B, N)),
        ws=[[m((N, (I if i < direction else N * direction)
                if j < n_weights // 2 else N)) for j in range(n_weights)]
            for i in range(n_sets)],
        bs=[[m((N,)) for _ in range(n_weights)] for _ in range(n_sets)],
        xs=[m((b, I)) for b in batches])
    args.update(change)
    return args


def _lstm(m, func=F.n_step_lstm, direction=1, **change):
    a = _args(m, 8, direction=direction, **change)
    return func(a['n_layers'], a['dropout_ratio'], a['hx'], a['cx'],
                a['ws'], a['bs'], a['xs'], **a.get('kwargs', {}))


def _gru(m, func=F.n_step_gru, **change):
    a = _args(m, 6, **change)
    return func(a['n_layers'], a['dropout_ratio'], a['hx'], a['ws'],
                a['bs'], a['xs'])


def _rnn(m, func=F.n_step_rnn, activation='tanh', **change):
    a = _args(m, 2, **change)
    return func(a['n_layers'], a['dropout_ratio'], a['hx'], a['ws'],
                a['bs'], a['xs'], activation=activation)


LSTM = ('n_step_lstm',)
bad('n_step_lstm-hx-ndim', lambda m: _lstm(m, hx=m((B, N))), LSTM, ('hx',))
bad('n_step_lstm-hx-layers', lambda m: _lstm(m, hx=m((2, B, N))), LSTM,
    ('hx',))
bad('n_step_lstm-hx-int', lambda m: _lstm(m, hx=m((1, B, N), i32)), LSTM,
    ('hx',))
bad('n_step_lstm-hx-too-few-rows',
    lambda m: _lstm(m, hx=m((1, 1, N)), cx=m((1, 1, N))), LSTM, ('xs', 'hx'))
bad('n_step_lstm-cx-shape', lambda m: _lstm(m, cx=m((1, B, N + 1))), LSTM,
    ('cx',))
bad('n_step_lstm-cx-dtype', lambda m: _lstm(m, cx=m((1, B, N), f64)), LSTM,
    ('cx',))
bad('n_step_lstm-cx-none', lambda m: _lstm(m, cx=None), LSTM, ('cx',))
bad('n_step_lstm-ws-length',
    lambda m: _lstm(m, ws=[[m((N, I))] * 4 + [m((N, N))] * 4] * 2), LSTM,
    ('ws',))
bad('n_step_lstm-ws-count',
    lambda m: _lstm(m, ws=[[m((N, I))] * 4 + [m((N, N))] * 3]), LSTM,
    ('ws',))
bad('n_step_lstm-W-input-shape',
    lambda m: _lstm(m, ws=[[m((N, I + 1))] * 4 + [m((N, N))] * 4]), LSTM,
    ('ws',))
bad('n_step_lstm-W-hidden-shape',
    lambda m: _lstm(m, ws=[[m((N, I))] * 4 + [m((N, I))] * 4]), LSTM,
    ('ws',))
bad('n_step_lstm-W-dtype',
    lambda m: _lstm(m, ws=[[m((N, I), f64)] * 4 + [m((N, N))] * 4]), LSTM,
    ('ws',))
bad('n_step_lstm-b-shape',
    lambda m: _lstm(m, bs=[[m((N + 1,))] * 8]), LSTM, ('bs',))
bad('n_step_lstm-xs-increasing', lambda m: _lstm(m, batches=(1, 2)), LSTM,
    ('xs',))
bad('n_step_lstm-xs-width',
    lambda m: _lstm(m, xs=[m((2, I)), m((1, I + 1))]), LSTM, ('xs',))
bad('n_step_lstm-xs-ndim', lambda m: _lstm(m, xs=[m((2, I, 1))]), LSTM,
    ('xs',))
bad('n_step_lstm-xs-dtype',
    lambda m: _lstm(m, xs=[m((2, I), f64)]), LSTM, ('xs',))
bad('n_step_lstm-xs-not-a-list', lambda m: _lstm(m, xs=m((2, 2, I))), LSTM,
    ('xs',))
bad('n_step_lstm-n_layers-zero', lambda m: _lstm(m, n_layers=0), LSTM,
    ('n_layers',))
bad('n_step_lstm-n_layers-float', lambda m: _lstm(m, n_layers=1.0), LSTM,
    ('n_layers',))
bad('n_step_lstm-dropout_ratio-one', lambda m: _lstm(m, dropout_ratio=1.0),
    LSTM, ('dropout_ratio',))
bad('n_step_lstm-train', lambda m: _lstm(m, kwargs=dict(train=False)), LSTM,
    ('train',))
bad('n_step_bilstm-hx-directions',
    lambda m: _lstm(m, F.n_step_bilstm, direction=2, hx=m((1, B, N)),
                    cx=m((1, B, N))), ('n_step_bilstm',), ('hx',))
bad('n_step_bilstm-ws-directions',
    lambda m: F.n_step_bilstm(1, 0.0, m((2, B, N)), m((2, B, N)),
                              [[m((N, I))] * 4 + [m((N, N))] * 4],
                              [[m((N,))] * 8], [m((B, I))]),
    ('n_step_bilstm',), ('ws',))

GRU = ('n_step_gru',)
bad('n_step_gru-W-dtype',
    lambda m: _gru(m, ws=[[m((N, I))] * 3 + [m((N, N), f64)] * 3]), GRU,
    ('ws',))
bad('n_step_gru-b-count', lambda m: _gru(m, bs=[[m((N,))] * 5]), GRU,
    ('bs',))
bad('n_step_gru-hx-units', lambda m: _gru(m, hx=m((1, B, N + 1))), GRU,
    ('ws', 'hx'))
bad('n_step_bigru-second-layer-W',
    lambda m: F.n_step_bigru(
        2, 0.0, m((4, B, N)),
        [[m((N, I))] * 3 + [m((N, N))] * 3] * 2 +
        [[m((N, N))] * 3 + [m((N, N))] * 3] * 2,
        [[m((N,))] * 6] * 4, [m((B, I))]),
    ('n_step_bigru',), ('ws',))

RNN = ('n_step_rnn',)
bad('n_step_rnn-activation', lambda m: _rnn(m, activation='sigmoid'), RNN,
    ('activation',))
bad('n_step_birnn-activation',
    lambda m: _rnn(m, F.n_step_birnn, activation='softplus', direction=2),
    ('n_step_birnn',), ('activation',))
bad('n_step_rnn-xs-int', lambda m: _rnn(m, xs=[m((2, I), i32)]), RNN,
    ('xs',))
