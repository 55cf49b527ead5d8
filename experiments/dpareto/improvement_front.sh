#!/usr/bin/env bash
# The improvement region's front on the Adult problems: DPareto cutting its cells from the evaluated
# settings at the GP posterior means (the default since 2026-12-01: noisy utilities denoised) against
# the observed front (as before), at equal evaluations (INIT + BUDGET − INIT, SEEDS seeds each).
# Hypervolume with reference (10, 1) on the linear ε axis (Table 2's) and on the log axis. Writes,
# per model, OUT/MODEL/improvement_front-{linear,log}.txt (dpareto compare: posterior minus observed,
# per seed and Welch's over the seeds) and improvement_front_hv.png, then OUT/improvement_front.md.
#
# usage: experiments/dpareto/improvement_front.sh [MODEL...]   (default adult-logreg-sgd)
#        knobs: those of common.sh; BUDGET defaults to 64 and SEEDS to 10 here
[ "${SMOKE:-0}" = 1 ] || : "${BUDGET:=64}" "${SEEDS:=10}"
source "$(dirname "$0")/common.sh"
adult_models_from "$@"

arm_a_flags=(--improvement-front posterior) arm_b_flags=(--improvement-front observed)
compare_arms_table improvement_front posterior observed "posterior minus observed" \
  "DPareto with the posterior and the observed improvement front" linear log
