#pragma once
// Early stopping's question (issue 18, `explore --early-stop`): asked by an evaluation after each
// result it measures on the way (a training's epoch), whether to go on after the `count`-th one of
// the `of` it would measure in all, whose utility is `utility`, the next to come at `next_epsilon`.
// An empty GoOn always goes on.
#include <functional>

namespace dpareto {

using GoOn = std::function<bool(int count, int of, double utility, double next_epsilon)>;

}  // namespace dpareto
