#!/usr/bin/env bash
# EHVI against HVPoI on the Adult problems (issue 13 item 1: "if one of them is better on some
# problems, say which and when"): DPareto with --acquisition ehvi (whose noisy GPs learn an input
# warping) against DPareto with the default HVPoI, at equal evaluations (INIT + BUDGET − INIT, SEEDS
# seeds each). Hypervolume with reference (10, 1) on the linear ε axis (Table 2's) and on the log
# axis. Writes, per model, OUT/MODEL/ehvi-{linear,log}.txt (dpareto compare: EHVI minus HVPoI, per
# seed and Welch's over the seeds) and ehvi_hv.png, then OUT/ehvi.md.
#
# usage: experiments/dpareto/ehvi.sh [MODEL...]   (default adult-logreg-sgd)
#        knobs: those of common.sh; BUDGET defaults to 64 and SEEDS to 10 here
[ "${SMOKE:-0}" = 1 ] || : "${BUDGET:=64}" "${SEEDS:=10}"
source "$(dirname "$0")/common.sh"
adult_models_from "$@"

arm_a_flags=(--acquisition ehvi) arm_b_flags=()
compare_arms_table ehvi ehvi hvpoi "EHVI minus HVPoI" "DPareto with EHVI and with HVPoI" linear log
