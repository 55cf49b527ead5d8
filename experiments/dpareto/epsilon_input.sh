#!/usr/bin/env bash
# ε as an input (issue 18 item 3): DPareto over (epochs, lot size, learning rate, target ε, clip
# norm) with the noise multiplier calibrated to each target (`--set noise=calibrated`), against
# DPareto over the noise multiplier itself, at equal evaluations (INIT + BUDGET − INIT, SEEDS seeds
# each). Hypervolume on the linear ε axis with reference (10, 1), as Table 2. Writes, per model,
# OUT/MODEL/epsilon_input-linear.txt (dpareto compare: calibrated minus parameter, per seed and Welch's
# over the seeds) and epsilon_input_hv.png, then OUT/epsilon_input.md.
#
# usage: experiments/dpareto/epsilon_input.sh [MODEL...]   (default adult-logreg-sgd)
#        knobs: those of common.sh; BUDGET defaults to 64 here
[ "${SMOKE:-0}" = 1 ] || : "${BUDGET:=64}"
source "$(dirname "$0")/common.sh"
adult_models_from "$@"

arm_a_flags=(--set noise=calibrated) arm_b_flags=()
compare_arms_table epsilon_input calibrated parameter "calibrated minus parameter" \
  "DPareto over the noise multiplier and over the target ε" linear
