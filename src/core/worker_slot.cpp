#include "dpareto/core/worker_slot.hpp"

namespace dpareto {
namespace {

thread_local int slot = 0;

}  // namespace

int current_worker_slot() {
  return slot;
}

WorkerSlotScope::WorkerSlotScope(int new_slot) : previous_(slot) {
  slot = new_slot;
}

WorkerSlotScope::~WorkerSlotScope() {
  slot = previous_;
}

}  // namespace dpareto
