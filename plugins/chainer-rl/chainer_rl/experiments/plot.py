"""Learning curves from ``scores.txt``."""
import os

import numpy as np


def read_scores(outdir_or_scores_txt):
    """Read a ``scores.txt`` (or the one in a folder) into a dict of
    column name -> float array (values that are not numbers become NaN)."""
    path = outdir_or_scores_txt
    if os.path.isdir(path):
        path = os.path.join(path, 'scores.txt')
    if not os.path.exists(path):
        raise FileNotFoundError('read_scores: no scores file at {!r}'.format(
            path))
    with open(path) as f:
        lines = [line.rstrip('\n') for line in f if line.strip()]
    if not lines:
        raise ValueError('read_scores: {!r} is empty'.format(path))
    columns = lines[0].split('\t')
    data = {name: [] for name in columns}
    for lineno, line in enumerate(lines[1:], start=2):
        fields = line.split('\t')
        if len(fields) != len(columns):
            raise ValueError('read_scores: line {} of {!r} has {} fields, the '
                             'header has {}'.format(lineno, path,
                                                    len(fields),
                                                    len(columns)))
        for name, field in zip(columns, fields):
            try:
                value = float(field)
            except ValueError:
                value = float('nan')
            data[name].append(value)
    return {name: np.asarray(values, dtype=np.float64)
            for name, values in data.items()}


def plot_scores(outdir_or_scores_txt, filename, title=None):
    """Draw the evaluation mean against steps, shading min to max, and
    write it as an image (PNG by the file's extension).

    Args:
        outdir_or_scores_txt (str): an output folder or its scores.txt.
        filename (str): image to write.
        title (str or None): figure title (default: the folder's name).

    Returns:
        str: ``filename``.
    """
    scores = read_scores(outdir_or_scores_txt)
    for name in ('steps', 'mean'):
        if name not in scores:
            raise ValueError('plot_scores: the scores have no {!r} column '
                             '(columns: {})'.format(name, sorted(scores)))
    # The Agg canvas draws without a display and leaves pyplot's backend
    # choice alone.
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6, 4))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot(1, 1, 1)
    steps = scores['steps']
    ax.plot(steps, scores['mean'], marker='o', markersize=3,
            label='mean return')
    if 'min' in scores and 'max' in scores:
        ax.fill_between(steps, scores['min'], scores['max'], alpha=0.2,
                        label='min to max')
    ax.set_xlabel('steps')
    ax.set_ylabel('evaluation return')
    if title is None:
        src = os.path.abspath(outdir_or_scores_txt)
        if not os.path.isdir(src):
            src = os.path.dirname(src)
        title = os.path.basename(src)
    ax.set_title(title)
    ax.grid(True, alpha=0.3)
    ax.legend(loc='best')
    fig.tight_layout()
    fig.savefig(filename)
    return filename
