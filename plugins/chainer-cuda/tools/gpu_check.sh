#!/usr/bin/env bash
# The GPU checks of chainer-cuda, in about 7 minutes, on a machine with an
# NVIDIA GPU, CUDA and CuPy 14 (cupy-cuda12x or cupy-cuda13x), NumPy,
# pluggy, setuptools and pytest installed, and PyTorch with CUDA for the
# side-by-side benchmark. No network is needed. Run from the repository
# root:
#
#     bash plugins/chainer-cuda/tools/gpu_check.sh
#
# What it leaves in $OUT (default ./gpu_check_out) is at most 8 files, so
# that a machine that returns no more than that gives back all of it:
#   summary.txt      each step's exit status and time, then the tests'
#                    FAILED and ERROR lines of every log
#   setup.log        steps 1 and 2
#   plugin_tests.log step 3
#   run.log          steps 4 and 5
#   kit_ops.log      the kit's test_ops
#   kit_others.log   the kit's other modules, one after another
# A step appends to its log under a header. Each step has a time limit; a
# test run that reaches it is interrupted (SIGINT), so pytest still prints
# the failures it found. The steps:
#   1. install chainer-core and chainer-cuda (editable, no dependencies)
#      and, where scikit-learn is missing, the wheels in
#      plugins/chainer-cuda/tools/wheels (pip download --no-deps
#      --python-version 3.12 scikit-learn scipy joblib threadpoolctl);
#   2. python -m chainer_core info;
#   3. the plugin's GPU tests (its other tests need no GPU);
#   4. examples/mnist/train_mnist.py --device 0 for one epoch (digits);
#   5. the benchmark against PyTorch CUDA (tools/bench_gpu.py);
#   6. the conformance kit on @cupy:0, module by module, in the time left
#      of BUDGET seconds (default 420) for the whole script.
set -u
cd "$(dirname "$0")/../../.."
OUT=${OUT:-$PWD/gpu_check_out}
PY=${PYTHON:-python3}
BUDGET=${BUDGET:-420}
mkdir -p "$OUT"
START=$(date +%s)
for f in summary.txt setup.log plugin_tests.log run.log kit_ops.log \
         kit_others.log; do
    : > "$OUT/$f"
done

elapsed() { echo $(( $(date +%s) - START )); }

# step NAME LOG LIMIT COMMAND...: run COMMAND with a time limit, append
# its output to $OUT/LOG.log under a header, record its exit status.
step() {
    local name=$1 log=$OUT/$2.log limit=$3 t0 rc
    shift 3
    t0=$(date +%s)
    echo "== $name (limit ${limit}s, $(elapsed)s elapsed)"
    echo "===== $name" >> "$log"
    timeout -s INT -k 20 "$limit" "$@" > "$OUT/step.tmp" 2>&1
    rc=$?
    cat "$OUT/step.tmp" >> "$log"
    tail -n 25 "$OUT/step.tmp"
    rm -f "$OUT/step.tmp"
    echo "$name: exit $rc in $(( $(date +%s) - t0 ))s" | tee -a "$OUT/summary.txt"
    return $rc
}

install() {
    nvidia-smi || true
    "$PY" -c 'import cupy, numpy; print("CuPy", cupy.__version__, "NumPy", numpy.__version__)'
    local args="--no-deps --no-build-isolation -e . ./plugins/chainer-cuda"
    # shellcheck disable=SC2086
    "$PY" -m pip install $args || "$PY" -m pip install --break-system-packages $args || return 1
    if ! "$PY" -c 'import sklearn' 2>/dev/null; then
        local wheels=(plugins/chainer-cuda/tools/wheels/*.whl)
        if [ -e "${wheels[0]}" ]; then
            "$PY" -m pip install --no-deps --no-index "${wheels[@]}" ||
                "$PY" -m pip install --break-system-packages --no-deps --no-index "${wheels[@]}"
        else
            echo "scikit-learn is missing and no wheels were carried: the digits example will fail"
        fi
    fi
}

export -f install
export PY
step install setup 90 bash -c install
step info setup 40 "$PY" -m chainer_core info
step plugin_tests plugin_tests 120 "$PY" -m pytest -q -rfEs \
    -p no:cacheprovider -m gpu plugins/chainer-cuda/tests
# The example's result files stay out of $OUT.
MNIST_OUT=$(mktemp -d)
step mnist run 60 "$PY" examples/mnist/train_mnist.py --device 0 --epoch 1 \
    --unit 200 --noplot --out "$MNIST_OUT"
rm -rf "$MNIST_OUT"
step bench run 90 "$PY" plugins/chainer-cuda/tools/bench_gpu.py \
    mlp_step:256 conv_step:128 tiny_mlp_step:1 tiny_mlp_graph_step:1

# The kit, module by module (its largest first), so that one slow module
# does not hide the others' results. Each gets the time left in proportion
# to its weight among the modules still to run (time a module leaves
# unused goes to the rest), and at least 15 s while there is any.
MODULES=(test_ops:40 test_special_values:15 test_optimizers:15 test_links:12
         test_mixed_dtypes:8 test_mixed_devices:5 test_bad_input:5)
WEIGHTS=100
for entry in "${MODULES[@]}"; do
    module=${entry%%:*}
    weight=${entry##*:}
    left=$(( BUDGET - $(elapsed) ))
    limit=$(( left * weight / WEIGHTS ))
    WEIGHTS=$(( WEIGHTS - weight ))
    [ "$limit" -lt 15 ] && limit=15
    [ "$limit" -gt "$left" ] && limit=$left
    if [ "$left" -lt 15 ]; then
        echo "kit_$module: skipped, no time left" | tee -a "$OUT/summary.txt"
        continue
    fi
    log=kit_others
    [ "$module" = test_ops ] && log=kit_ops
    step "kit_$module" "$log" "$limit" env CHAINER_TEST_DEVICES=@cupy:0 \
        "$PY" -m pytest -q -rfE -p no:cacheprovider --maxfail=50 \
        --pyargs "chainer_core.testing.conformance.$module"
done
echo "total $(elapsed)s" | tee -a "$OUT/summary.txt"
{
    echo
    echo "failures (log: line):"
    (cd "$OUT" && grep -n -E '^(FAILED|ERROR) ' ./*.log) || echo none
} >> "$OUT/summary.txt"
