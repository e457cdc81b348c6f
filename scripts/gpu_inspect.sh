#!/usr/bin/env bash
# On the GPU machine: compile the replay kernel and run every case of DIR/cases.txt under ncu.
#   OUT=/tmp/out scripts/gpu_inspect.sh DIR      (DIR/cases.txt from `gpu_inspect.py cases DIR`)
#   MODES=serial ... : only the serial replay (default: serial and concurrent)
# Writes $OUT/ncu_serial.csv and ncu_concurrent.csv (one row per case, in order), $OUT/metrics_available.txt,
# $OUT/metrics.txt (the --metrics list used), $OUT/replay.log.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dir="${1:?usage: gpu_inspect.sh DIR}"
out="${OUT:-/tmp/cutevis-inspect}"
mkdir -p "$out"
ncu=/usr/local/cuda/bin/ncu
nvcc=/usr/local/cuda/bin/nvcc
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"
$nvcc --version | tail -1 >> "$out/gpu.txt"
$ncu --version | tail -1 >> "$out/gpu.txt"
[ -x /tmp/inspect_replay ] && [ /tmp/inspect_replay -nt "$here/inspect_replay.cu" ] || $nvcc -O2 -arch=sm_90a -o /tmp/inspect_replay "$here/inspect_replay.cu" || exit 1
/usr/local/cuda/bin/cuobjdump -sass /tmp/inspect_replay | grep -oE "\b(LDS|STS|LDSM|STSM|LDG|STG|LDGSTS|LDL|STL|LDC)[A-Z0-9._]*" | sort | uniq -c > "$out/sass_ops.txt"
# The metrics we compare, those this ncu knows (cp.async's are named op_ldgsts).
wanted="l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldgsts l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldsm l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_stsm l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_stsm
l1tex__data_pipe_lsu_wavefronts_mem_shared l1tex__data_bank_conflicts_pipe_lsu_mem_shared
l1tex__t_requests_pipe_lsu_mem_global_op_ld l1tex__t_sectors_pipe_lsu_mem_global_op_ld
l1tex__t_requests_pipe_lsu_mem_global_op_st l1tex__t_sectors_pipe_lsu_mem_global_op_st
l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts
smsp__inst_executed_op_shared_ld smsp__inst_executed_op_shared_st smsp__inst_executed_op_ldsm smsp__inst_executed_op_stsm
smsp__inst_executed_op_ldgsts smsp__inst_executed_op_global_ld smsp__inst_executed_op_global_st
l1tex__data_pipe_lsu_wavefronts_mem_shared_cmd_write l1tex__data_pipe_lsu_wavefronts_mem_shared_cmd_read
l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts_cache_access l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access
l1tex__data_bank_conflicts_type_arbitration"
$ncu --query-metrics > "$out/metrics_available.txt" 2>&1
list=""
for m in $wanted; do
  if grep -q "^$m " "$out/metrics_available.txt"; then list="$list${list:+,}$m.sum"; else echo "not available: $m"; fi
done
echo "$list" > "$out/metrics.txt"
/tmp/inspect_replay "$dir/cases.txt" serial > "$out/replay_plain.log" 2>&1 || { tail "$out/replay_plain.log"; exit 1; }
tail -1 "$out/replay_plain.log"
# serial: one warp at a time (the counts of the instructions alone); concurrent: all warps at once.
for mode in ${MODES:-serial concurrent}; do
  $ncu --csv --page raw --metrics "$list" /tmp/inspect_replay "$dir/cases.txt" $mode > "$out/ncu_$mode.csv" 2> "$out/ncu_$mode.err"
  echo "ncu $mode exit $?; $(grep -c '"replay' "$out/ncu_$mode.csv") kernels profiled"
  tail -3 "$out/ncu_$mode.err"
done
