#!/bin/bash
# recur_perf on a SLURM cluster: one rank per GPU (or per CPU socket), every
# rank count from 1 to the allocation's tasks in powers of two, one JSON per
# count, then perf_table.py's merged table and weak-scaling plot.
#
#   sbatch --nodes=1 --ntasks-per-node=4 --gpus-per-task=1 perf_tests/slurm_perf.sh BUILD OUT
#   FILTER='evaluate/|mpi_' sbatch ... perf_tests/slurm_perf.sh BUILD OUT   # more of the suite
#
# BUILD: recur's build folder (BUILD/perf_tests/recur_perf, BUILD/recur); OUT:
# where the JSON, table and plot go, and the mpi_eval_file entries' file
# (RECUR_PERF_DIR): a file system every node sees. docs/clusters.md says more.
#SBATCH --job-name=recur_perf
#SBATCH --time=00:30:00
#SBATCH --exclusive
set -euo pipefail
build=${1:?usage: sbatch [options] perf_tests/slurm_perf.sh BUILD OUT}
out=${2:?usage: sbatch [options] perf_tests/slurm_perf.sh BUILD OUT}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
export RECUR_PERF_DIR=$out
export OMP_PROC_BIND=${OMP_PROC_BIND:-spread} OMP_PLACES=${OMP_PLACES:-threads}
filter=${FILTER:-mpi_}
tasks=${SLURM_NTASKS:-1}
gpus=()
[ -n "${SLURM_GPUS_PER_TASK:-}" ] && gpus=(--gpus-per-task="$SLURM_GPUS_PER_TASK")

# Every rank on its own device: the ranks, hosts and devices, first.
srun -n "$tasks" "${gpus[@]}" "$build/recur" info | tee "$out/recur-info-$SLURM_JOB_ID.txt"

results=()
for ((ranks = 1; ranks <= tasks; ranks *= 2)); do
  json=$out/recur_perf-$SLURM_JOB_ID-${ranks}ranks.json
  srun -n "$ranks" "${gpus[@]}" "$build/perf_tests/recur_perf" --benchmark_filter="$filter" \
    --benchmark_out="$json" --benchmark_out_format=json
  results+=("$json")
done
python3 "$here/perf_table.py" "${results[@]}" --plot "$out/recur_perf-$SLURM_JOB_ID-scaling.png" \
  > "$out/recur_perf-$SLURM_JOB_ID.md"
echo "results: $out/recur_perf-$SLURM_JOB_ID.md"
