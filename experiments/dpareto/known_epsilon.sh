#!/usr/bin/env bash
# Known ε (issue 18 item 1): DPareto with ε computed by the accountant inside the acquisition
# (`--known-epsilon`: no ε GP, nothing proposed beyond the ε reference) against DPareto modelling ε
# with a GP, at equal evaluations (INIT + BUDGET − INIT, SEEDS seeds each), both with the RDP
# accountant (--known-epsilon needs a fast one). Hypervolume with reference (10, 1) on the linear ε
# axis (Table 2's) and on the log axis. Writes, per model, OUT/MODEL/known_epsilon-{linear,log}.txt
# (dpareto compare: known minus modelled, per seed and Welch's over the seeds) and
# known_epsilon_hv.png, then OUT/known_epsilon.md.
#
# usage: experiments/dpareto/known_epsilon.sh [MODEL...]   (default adult-logreg-sgd)
#        knobs: those of common.sh; BUDGET defaults to 64 and SEEDS to 10 here
[ "${SMOKE:-0}" = 1 ] || : "${BUDGET:=64}" "${SEEDS:=10}"
source "$(dirname "$0")/common.sh"
adult_models_from "$@"
problem_flags+=(--set accountant=rdp)

arm_a_flags=(--known-epsilon) arm_b_flags=()
compare_arms_table known_epsilon known modelled "known minus modelled ε" \
  "DPareto with ε known and with ε modelled" linear log
